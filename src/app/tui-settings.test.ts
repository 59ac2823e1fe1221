import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { saveSettings, settingsOf } from './tui-settings.js';

describe('the settings screen and notify:', () => {
  let root: string;
  beforeEach(async () => {
    root = await makeTempDir('tui-settings');
    await mkdir(join(root, '.ralph'));
  });
  afterEach(async () => {
    await removeTempDir(root);
  });

  it('shows what a run would do, and a change holds where notify: set it', async () => {
    await writeFile(join(root, '.ralph', 'config.yaml'), 'notify:\n  desktop: true\n');
    const saved = await saveSettings(root, { notifications: { desktop: false } });
    expect(saved.issues).toEqual([]);
    expect(saved.config && settingsOf(saved.config).notifications).toEqual({ bell: true, desktop: false });
    const text = await readFile(join(root, '.ralph', 'config.yaml'), 'utf8');
    expect(text).toMatch(/notify:\n {2}desktop: false/);
    expect(text).toMatch(/notifications:\n {2}desktop: false/);
  });

  it('leaves notify: alone where it does not set them', async () => {
    await writeFile(join(root, '.ralph', 'config.yaml'), 'checks: []\n');
    const saved = await saveSettings(root, { notifications: { bell: false } });
    expect(saved.config && settingsOf(saved.config).notifications).toEqual({ bell: false, desktop: false });
    expect(await readFile(join(root, '.ralph', 'config.yaml'), 'utf8')).not.toContain('notify');
  });
});
