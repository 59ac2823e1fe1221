import type { AgentAdapter } from './adapter.js';
import { ampAdapter } from './amp/amp-adapter.js';
import { claudeAdapter } from './claude/claude-adapter.js';
import { codexAdapter } from './codex/codex-adapter.js';
import { cursorAdapter } from './cursor/cursor-adapter.js';
import { geminiAdapter } from './gemini/gemini-adapter.js';
import { opencodeAdapter } from './opencode/opencode-adapter.js';

const adapters: ReadonlyMap<string, AgentAdapter> = new Map(
  [claudeAdapter, codexAdapter, opencodeAdapter, geminiAdapter, ampAdapter, cursorAdapter].map((a) => [
    a.name,
    a,
  ]),
);

/** The adapter for a provider name, or undefined when ralph has none. */
export function getAdapter(name: string): AgentAdapter | undefined {
  return adapters.get(name);
}

export function adapterNames(): string[] {
  return [...adapters.keys()];
}
