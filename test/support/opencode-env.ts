/** Running the real OpenCode CLI against the scripted Chat Completions server, isolated from the machine's config. */
import { fileURLToPath } from 'node:url';
import { makeTempDir, removeTempDir } from './temp-dir.js';

/** The pinned `opencode` binary from this repo's devDependencies. */
export const OPENCODE_BINARY = fileURLToPath(new URL('../../node_modules/.bin/opencode', import.meta.url));

export const OPENCODE_TEST_MODEL = 'ralph-fake/m1';

/**
 * A custom provider on the server. Given through OPENCODE_CONFIG_CONTENT so
 * that nothing is written into the project (an `opencode.json` there would
 * dirty the tree the loop checks).
 */
export function opencodeConfig(serverUrl: string): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      'ralph-fake': {
        npm: '@ai-sdk/openai-compatible',
        name: 'Scripted',
        options: { baseURL: `${serverUrl}/v1`, apiKey: 'test-key' },
        models: { m1: { name: 'Scripted model' } },
      },
    },
    autoupdate: false,
    share: 'disabled',
  };
}

export interface OpencodeTestEnv {
  env: NodeJS.ProcessEnv;
  binaryPath: string;
  model: string;
  /** HOME of the run: OpenCode's config, data and cache live under it. */
  home: string;
  cleanup(): Promise<void>;
}

export async function createOpencodeEnv(serverUrl: string): Promise<OpencodeTestEnv> {
  const home = await makeTempDir('opencode-home');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_CONFIG_CONTENT: JSON.stringify(opencodeConfig(serverUrl)),
  };
  return {
    env,
    binaryPath: OPENCODE_BINARY,
    model: OPENCODE_TEST_MODEL,
    home,
    cleanup: () => removeTempDir(home),
  };
}
