import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../../test/support/temp-dir.js';
import { envFileHasAuth, findGeminiAuth, selectedAuthType } from './gemini-auth.js';

describe('selectedAuthType', () => {
  it('reads the current and the legacy settings key, comments allowed', () => {
    expect(
      selectedAuthType('{ // mine\n "security": { "auth": { "selectedType": "oauth-personal" } } }'),
    ).toBe('oauth-personal');
    expect(selectedAuthType('{"selectedAuthType": "gemini-api-key"}')).toBe('gemini-api-key');
    expect(selectedAuthType('{"theme": "dark"}')).toBeUndefined();
    expect(selectedAuthType('not json')).toBeUndefined();
  });
});

describe('envFileHasAuth', () => {
  it('finds a set auth variable, not an empty or commented one', () => {
    expect(envFileHasAuth('FOO=1\nexport GEMINI_API_KEY=abc\n')).toBe(true);
    expect(envFileHasAuth('GEMINI_API_KEY=\n# GOOGLE_API_KEY=x\n')).toBe(false);
  });
});

describe('findGeminiAuth', () => {
  let home: string;
  let project: string;
  beforeEach(async () => {
    home = await makeTempDir('gemini-auth-home');
    project = await makeTempDir('gemini-auth-project');
  });
  afterEach(async () => {
    await removeTempDir(home);
    await removeTempDir(project);
  });

  const env = (extra: Record<string, string> = {}) => ({
    HOME: home,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(home, 'none.json'),
    ...extra,
  });

  it('finds nothing in an empty home', async () => {
    expect(await findGeminiAuth(env(), project)).toBeUndefined();
  });

  it('finds the key in the environment, the settings, or a .env file', async () => {
    expect(await findGeminiAuth(env({ GEMINI_API_KEY: 'k' }), project)).toBe('$GEMINI_API_KEY');
    await mkdir(join(project, '.gemini'));
    await writeFile(join(project, '.env'), 'GOOGLE_API_KEY=abc\n');
    expect(await findGeminiAuth(env(), project)).toBe(join(project, '.env'));
    await mkdir(join(home, '.gemini'));
    await writeFile(
      join(home, '.gemini', 'settings.json'),
      '{"security":{"auth":{"selectedType":"oauth-personal"}}}',
    );
    expect(await findGeminiAuth(env(), project)).toBe(
      `oauth-personal (${join(home, '.gemini', 'settings.json')})`,
    );
  });
});
