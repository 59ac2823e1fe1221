import { PROVIDERS, type Provider } from '../state/providers.js';
import type { AgentAdapter } from './adapter.js';
import { ampAdapter } from './amp/amp-adapter.js';
import { claudeAdapter } from './claude/claude-adapter.js';
import { codexAdapter } from './codex/codex-adapter.js';
import { cursorAdapter } from './cursor/cursor-adapter.js';
import { geminiAdapter } from './gemini/gemini-adapter.js';
import { opencodeAdapter } from './opencode/opencode-adapter.js';

/**
 * Every adapter, by the provider name it answers to. Typed by the provider
 * list (which option parsing reads without loading the adapters): an
 * adapter missing here, or one the list does not name, does not compile.
 */
const ADAPTERS: Readonly<Record<Provider, AgentAdapter>> = {
  claude: claudeAdapter,
  codex: codexAdapter,
  opencode: opencodeAdapter,
  gemini: geminiAdapter,
  amp: ampAdapter,
  cursor: cursorAdapter,
};

const isProvider = (name: string): name is Provider => (PROVIDERS as readonly string[]).includes(name);

/** The adapter for a provider name, or undefined when ralph has none. */
export function getAdapter(name: string): AgentAdapter | undefined {
  return isProvider(name) ? ADAPTERS[name] : undefined;
}

export function adapterNames(): string[] {
  return [...PROVIDERS];
}
