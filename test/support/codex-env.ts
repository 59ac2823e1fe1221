/** Running the real Codex CLI against the scripted Responses server, isolated from the machine's config. */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, removeTempDir } from './temp-dir.js';

/** The pinned `codex` binary from this repo's devDependencies. */
export const CODEX_BINARY = fileURLToPath(new URL('../../node_modules/.bin/codex', import.meta.url));

export const CODEX_TEST_MODEL = 'fake-codex-model';
const PROVIDER = 'ralph_fake';
/** The variable Codex reads the fake provider's key from. */
export const CODEX_KEY_VAR = 'RALPH_FAKE_OPENAI_KEY';

export interface CodexTestEnv {
  env: NodeJS.ProcessEnv;
  binaryPath: string;
  /** What points Codex at the fake server: `-c` overrides, given before the prompt. */
  args: string[];
  model: string;
  /** HOME of the run; CODEX_HOME is `codex/` inside it. */
  home: string;
  cleanup(): Promise<void>;
}

export interface CodexEnvOptions {
  /** Codex's own retries of a failed request left at their defaults, as users have them. Default: none. */
  ownRetries?: boolean;
}

/** `-c` overrides that select a custom provider on the server, with no retries (a 429 fails at once) unless asked. */
export function codexProviderArgs(serverUrl: string, options: CodexEnvOptions = {}): string[] {
  const provider = [
    'name="fake"',
    `base_url="${serverUrl}/v1"`,
    'wire_api="responses"',
    `env_key="${CODEX_KEY_VAR}"`,
    ...(options.ownRetries ? [] : ['request_max_retries=0', 'stream_max_retries=0']),
  ].join(',');
  return ['-c', `model_provider=${PROVIDER}`, '-c', `model_providers.${PROVIDER}={${provider}}`];
}

export async function createCodexEnv(
  serverUrl: string,
  options: CodexEnvOptions = {},
): Promise<CodexTestEnv> {
  const home = await makeTempDir('codex-home');
  // Codex refuses a CODEX_HOME that does not exist.
  const codexHome = join(home, 'codex');
  await mkdir(codexHome);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    CODEX_HOME: codexHome,
    [CODEX_KEY_VAR]: 'test-key',
  };
  return {
    env,
    binaryPath: CODEX_BINARY,
    args: codexProviderArgs(serverUrl, options),
    model: CODEX_TEST_MODEL,
    home,
    cleanup: () => removeTempDir(home),
  };
}
