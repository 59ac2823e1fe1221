/**
 * `npm run demo` (scripts/demo.ts) leaves nothing behind: the clone's git
 * status is as it was, and its temporary directories are gone unless --keep
 * asked for the project, which it then names. The dependency check it runs
 * first is covered by test/cli/ensure-deps.test.ts.
 */
import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { runDemo } from '../../scripts/demo.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const gitStatus = async () =>
  (await promisify(execFile)('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: REPO }))
    .stdout;

let tmpRoot = '';
afterEach(async () => {
  if (tmpRoot) await removeTempDir(tmpRoot);
  tmpRoot = '';
});

describe('npm run demo', () => {
  it('runs the 3-story demo, leaves the clone as it was and removes its temporary directories', async () => {
    tmpRoot = await makeTempDir('demo-tmp');
    const before = await gitStatus();
    let output = '';
    const result = await runDemo({ tmpRoot, out: (text) => (output += text) });
    expect(result.code, output).toBe(0);
    expect(output).toContain('all stories passed — 3/3 passed');
    expect(output).toMatch(/✓ US-003 {2}Command line/);
    expect(await readdir(tmpRoot)).toEqual([]);
    expect(output).toContain(`Removed the demo project ${result.project}`);
    expect(await gitStatus()).toBe(before);
  });

  it('with --keep keeps the project, says where, and removes the rest', async () => {
    tmpRoot = await makeTempDir('demo-tmp');
    let output = '';
    const result = await runDemo({ keep: true, tmpRoot, out: (text) => (output += text) });
    expect(result.code, output).toBe(0);
    expect(await readdir(tmpRoot)).toEqual([basename(result.project)]);
    expect((await stat(`${result.project}/.ralph/prds/demo/progress.md`)).isFile()).toBe(true);
    expect(output).toContain(`Kept the demo project at ${result.project}`);
    expect(output).toContain(`rm -rf ${result.project}`);
  });
});
