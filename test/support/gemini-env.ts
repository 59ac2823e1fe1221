/** Running the real Gemini CLI against the scripted Gemini server, isolated from the machine's config. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, removeTempDir } from './temp-dir.js';

/** The pinned `gemini` binary from this repo's devDependencies. */
export const GEMINI_BINARY = fileURLToPath(new URL('../../node_modules/.bin/gemini', import.meta.url));

/**
 * Headless Gemini CLI needs an auth method in its settings: with
 * GOOGLE_GEMINI_BASE_URL set, the one it would pick from the environment is
 * one it then rejects (exit 41). Folder trust stays on: ralph passes `--skip-trust`.
 */
export const GEMINI_TEST_SETTINGS = { security: { auth: { selectedType: 'gemini-api-key' } } };

export interface GeminiTestEnv {
  env: NodeJS.ProcessEnv;
  binaryPath: string;
  /** HOME of the run, holding `.gemini/settings.json`. */
  home: string;
  cleanup(): Promise<void>;
}

export interface GeminiEnvOptions {
  settings?: Record<string, unknown>;
  extra?: Record<string, string>;
}

export async function createGeminiEnv(
  serverUrl: string,
  options: GeminiEnvOptions = {},
): Promise<GeminiTestEnv> {
  const home = await makeTempDir('gemini-home');
  await mkdir(join(home, '.gemini'));
  await writeFile(
    join(home, '.gemini', 'settings.json'),
    `${JSON.stringify(options.settings ?? GEMINI_TEST_SETTINGS, null, 2)}\n`,
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    GOOGLE_GEMINI_BASE_URL: serverUrl,
    GEMINI_API_KEY: 'test-key',
    ...options.extra,
  };
  return { env, binaryPath: GEMINI_BINARY, home, cleanup: () => removeTempDir(home) };
}
