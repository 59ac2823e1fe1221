import type { AgentAdapter } from './adapter.js';
import { claudeAdapter } from './claude/claude-adapter.js';

const adapters: ReadonlyMap<string, AgentAdapter> = new Map([[claudeAdapter.name, claudeAdapter]]);

/** The adapter for a provider name, or undefined when ralph has none. */
export function getAdapter(name: string): AgentAdapter | undefined {
  return adapters.get(name);
}

export function adapterNames(): string[] {
  return [...adapters.keys()];
}
