/**
 * The agent CLIs ralph can run: the keys of the adapter registry
 * (`src/agents/registry.ts`, typed by this list). Apart from the adapters
 * and the config schema so that option parsing loads neither them nor zod.
 */
export const PROVIDERS = ['claude', 'codex', 'opencode', 'gemini', 'amp', 'cursor'] as const;
export type Provider = (typeof PROVIDERS)[number];
