/** scripts/ensure-deps.mjs: when `npm test` and `npm run demo` must install first. */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/ensure-deps.mjs', import.meta.url));
const run = promisify(execFile);

let dir = '';
afterEach(async () => {
  if (dir) await removeTempDir(dir);
  dir = '';
});

const manifest = (deps: Record<string, string>, scripts: Record<string, string> = {}) =>
  JSON.stringify({ name: 'p', version: '1.0.0', scripts, dependencies: deps });
const lock = (deps: Record<string, string>) =>
  JSON.stringify({ name: 'p', lockfileVersion: 3, packages: { '': { name: 'p', dependencies: deps } } });

/** A project whose files were last touched at the given times (seconds since the epoch). */
async function project(files: { installedAt?: number; lockAt: number; manifestAt: number }, pkg: string) {
  dir = await makeTempDir('deps');
  await mkdir(join(dir, 'scripts'));
  await copyFile(SCRIPT, join(dir, 'scripts', 'ensure-deps.mjs'));
  await writeFile(join(dir, 'package.json'), pkg);
  await writeFile(join(dir, 'package-lock.json'), lock({ zod: '^4.0.0' }));
  await utimes(join(dir, 'package.json'), files.manifestAt, files.manifestAt);
  await utimes(join(dir, 'package-lock.json'), files.lockAt, files.lockAt);
  if (files.installedAt !== undefined) {
    await mkdir(join(dir, 'node_modules'));
    await writeFile(join(dir, 'node_modules', '.package-lock.json'), '{}');
    await utimes(join(dir, 'node_modules', '.package-lock.json'), files.installedAt, files.installedAt);
  }
}

async function check(): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, [join(dir, 'scripts', 'ensure-deps.mjs'), '--check']);
    return { code: 0, stderr: '' };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

describe('ensure-deps --check', () => {
  it('wants an install when node_modules is missing', async () => {
    await project({ lockAt: 100, manifestAt: 100 }, manifest({ zod: '^4.0.0' }));
    expect(await check()).toEqual({ code: 1, stderr: expect.stringContaining('node_modules is missing') });
  });

  it('is satisfied by an install newer than the lock file, whatever else changed in package.json', async () => {
    await project(
      { installedAt: 200, lockAt: 100, manifestAt: 300 },
      manifest({ zod: '^4.0.0' }, { t: 'x' }),
    );
    expect((await check()).code).toBe(0);
  });

  it('wants an install when the lock file is newer than node_modules', async () => {
    await project({ installedAt: 100, lockAt: 200, manifestAt: 100 }, manifest({ zod: '^4.0.0' }));
    expect(await check()).toEqual({ code: 1, stderr: expect.stringContaining('package-lock.json changed') });
  });

  it('wants an install when package.json declares dependencies the lock file lacks', async () => {
    await project(
      { installedAt: 200, lockAt: 100, manifestAt: 300 },
      manifest({ zod: '^4.0.0', yaml: '^2' }),
    );
    expect(await check()).toEqual({ code: 1, stderr: expect.stringContaining('dependencies') });
  });
});

describe('ensure-deps installing', () => {
  /**
   * A lock file as another npm wrote it, against a registry without the
   * optional package `dep` has for another platform: `npm install` would
   * rewrite it (`requires`, the `dev` flag, an entry for that package) and
   * `npm ci` refuses it for the missing entry. opencode-ai's lock entries are
   * in that state here.
   */
  const foreignLock = `${JSON.stringify(
    {
      name: 'p',
      version: '1.0.0',
      lockfileVersion: 3,
      packages: {
        '': { name: 'p', version: '1.0.0', devDependencies: { dep: 'file:dep' } },
        dep: { version: '1.0.0', optionalDependencies: { 'dep-aix': 'file:../aix' } },
        'node_modules/dep': { resolved: 'dep', link: true },
      },
    },
    null,
    2,
  )}\n`;

  /** A project with one local dependency (no registry needed) and no node_modules. */
  async function installable(devDependencies: Record<string, string>): Promise<void> {
    dir = await makeTempDir('deps');
    const files = {
      'dep/package.json': {
        name: 'dep',
        version: '1.0.0',
        optionalDependencies: { 'dep-aix': 'file:../aix' },
      },
      'aix/package.json': { name: 'dep-aix', version: '1.0.0', os: ['aix'] },
      'package.json': { name: 'p', version: '1.0.0', devDependencies },
    };
    for (const [path, json] of Object.entries(files)) {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), JSON.stringify(json));
    }
    await mkdir(join(dir, 'scripts'));
    await copyFile(SCRIPT, join(dir, 'scripts', 'ensure-deps.mjs'));
    await writeFile(join(dir, 'package-lock.json'), foreignLock);
  }

  async function ensure(): Promise<{ code: number; stderr: string }> {
    try {
      const { stderr } = await run(process.execPath, [join(dir, 'scripts', 'ensure-deps.mjs')], { cwd: dir });
      return { code: 0, stderr };
    } catch (error) {
      const e = error as { code: number; stderr: string };
      return { code: e.code, stderr: e.stderr };
    }
  }

  it('installs what package-lock.json records and leaves package-lock.json byte for byte', async () => {
    await installable({ dep: 'file:dep' });
    const result = await ensure();
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(join(dir, 'node_modules', 'dep', 'package.json'), 'utf8')).toContain('"dep"');
    expect(await readFile(join(dir, 'package-lock.json'), 'utf8')).toBe(foreignLock);
    // Up to date now: a second run installs nothing.
    expect(await ensure()).toEqual({ code: 0, stderr: '' });
  });

  it('leaves a lock file that lacks what package.json declares to `npm install`, and writes nothing', async () => {
    await installable({ dep: 'file:dep', other: 'file:other' });
    const result = await ensure();
    expect(result).toEqual({ code: 1, stderr: expect.stringContaining('run: npm install') });
    expect(result.stderr).toContain('package-lock.json does not record');
    expect(await readFile(join(dir, 'package-lock.json'), 'utf8')).toBe(foreignLock);
    await expect(stat(join(dir, 'node_modules'))).rejects.toThrow(/ENOENT/);
  });
});
