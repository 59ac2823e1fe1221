/**
 * The environment a sandboxed command gets: an allowlist, not the user's
 * whole environment, so tokens and keys that happen to be set (GH_TOKEN,
 * AWS_SECRET_ACCESS_KEY, NPM_TOKEN, a DATABASE_URL with its password,
 * SSH_AUTH_SOCK) stay outside unless the user lists them in `sandbox.env`.
 * `RALPH_SERVE_TOKEN` stays outside whatever is listed (it would let the
 * agent answer its own questions on the web page as the user); the other
 * `RALPH_*` variables and the tokens ralph acts with on GitHub pass only when
 * named exactly (the attempt's token by the base list), never through a
 * pattern such as `RALPH_*` or `GH_*`.
 */

/** A name (`GH_TOKEN`) or a prefix ending in `*` (`AWS_*`). */
export type EnvPattern = string;

/** What a shell, git, Node and the usual toolchains need, none of it a secret. */
export const SANDBOX_BASE_ENV: readonly EnvPattern[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'COLORTERM',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_COLLATE',
  'LC_MESSAGES',
  'LC_MONETARY',
  'LC_NUMERIC',
  'LC_TIME',
  'TZ',
  'NO_COLOR',
  'FORCE_COLOR',
  'CI',
  // The user's network: the agent reaches its API through the same proxy and certificates.
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NVM_DIR',
  'NVM_BIN',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_CONFIG_DIRS',
  'XDG_DATA_DIRS',
  // Who commits, and which git config is read (the config files themselves are read-only inside).
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
  // Toolchains the gates may use.
  'JAVA_HOME',
  'GOPATH',
  'GOROOT',
  'GOCACHE',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'PYTHONPATH',
  'VIRTUAL_ENV',
  'PNPM_HOME',
  'BUN_INSTALL',
  'DENO_DIR',
  // ralph's own: the attempt's token (how a resumed run finds the agent), nothing else of ralph's.
  'RALPH_ATTEMPT',
  // A hook's variables (`run/hooks-vars.ts`).
  'ITERATION',
  'ITERATION_TRANSCRIPT',
  'RUN_ID',
  'STORY_ID',
  'STEP_ID',
  'PRD',
  'SPRINT_ID',
  'PHASE_ID',
];

/** ralph's own secrets: never passed in, whatever is listed. */
export const NEVER_IN_SANDBOX: readonly string[] = ['RALPH_SERVE_TOKEN'];

/** Passed in only when listed by their exact name, never through a pattern (`GH_*`, `RALPH_*`, `*`). */
function exactOnly(name: string): boolean {
  return EXACT_ONLY_ENV.includes(name) || name.startsWith('RALPH_');
}

/** What ralph itself acts with on GitHub. */
export const EXACT_ONLY_ENV: readonly string[] = [
  'GH_TOKEN',
  'GITHUB_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'GITHUB_ENTERPRISE_TOKEN',
];

const matches = (name: string, pattern: EnvPattern): boolean =>
  pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) && !exactOnly(name) : name === pattern;

export const envAllowed = (name: string, allowed: readonly EnvPattern[]): boolean =>
  !NEVER_IN_SANDBOX.includes(name) && allowed.some((pattern) => matches(name, pattern));

/** The variables of `env` the patterns allow, then `set` on top. */
export function sandboxEnv(
  env: NodeJS.ProcessEnv,
  allowed: readonly EnvPattern[],
  set: Readonly<Record<string, string>> = {},
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && envAllowed(name, allowed)) out[name] = value;
  }
  return { ...out, ...set };
}

/** The names of `env` the patterns leave out, for telling the user what stayed outside. */
export const envLeftOut = (env: NodeJS.ProcessEnv, allowed: readonly EnvPattern[]): string[] =>
  Object.keys(env)
    .filter((name) => env[name] !== undefined && !envAllowed(name, allowed))
    .sort();
