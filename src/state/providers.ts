/** The agent CLIs ralph can run. Apart from the config schema so that option parsing does not load zod. */
export const PROVIDERS = ['claude', 'codex', 'opencode', 'gemini', 'amp', 'cursor'] as const;
