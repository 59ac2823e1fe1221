import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { restoreToolFiles as restorePaths } from '../attempt/restore-tool-files.js';
import { RalphError } from '../core/errors.js';
import { goalToolPaths, prepareGoalTree } from './tree.js';

let repo: TempRepo;
beforeEach(async () => {
  repo = await makeTempRepo();
});
afterEach(async () => {
  await repo.cleanup();
});

const subjects = async () => (await repo.git('log', '--format=%s')).split('\n');

describe('goal tree guard', () => {
  it('commits a new goal file and ralph files, and refuses anyone else’s changes', async () => {
    await repo.commit('init', { 'README.md': 'x\n' });
    await repo.write('SPRINT.yaml', 'goal: x\n');
    await repo.write('.ralph/.gitignore', 'runs/\n');
    const ctx = { cwd: repo.dir, goalFileInRepo: 'SPRINT.yaml' };
    await prepareGoalTree(ctx);
    expect((await subjects())[0]).toBe('chore(ralph): track the goal files');
    expect(await repo.git('status', '--porcelain')).toBe('');

    await repo.write('README.md', 'edited\n');
    const error = await prepareGoalTree(ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RalphError);
    expect((error as RalphError).details).toEqual([' M README.md']);
  });

  it('undoes the agent’s changes to the goal file, committed or not, and leaves its other dirt', async () => {
    const base = await repo.commit('init', { 'SPRINT.yaml': 'goal: original\n', 'README.md': 'x\n' });
    const ctx = { cwd: repo.dir, goalFileInRepo: 'SPRINT.yaml' };
    const restoreToolFiles = (c: typeof ctx, sha: string) =>
      restorePaths(c.cwd, sha, goalToolPaths(c), 'chore(ralph): restore the goal files the agent changed');
    // The agent commits a change to the goal file along with its work, and leaves a stray file.
    await repo.commit('feat: work', { 'SPRINT.yaml': 'goal: easier\n', 'work.txt': 'w\n' });
    await repo.write('stray.txt', 's\n');
    expect(await restoreToolFiles(ctx, base)).toEqual(['SPRINT.yaml']);
    expect(await readFile(path.join(repo.dir, 'SPRINT.yaml'), 'utf8')).toBe('goal: original\n');
    expect((await subjects()).slice(0, 2)).toEqual([
      'chore(ralph): restore the goal files the agent changed',
      'feat: work',
    ]);
    expect(await repo.git('status', '--porcelain')).toBe('?? stray.txt');
    // Nothing to restore the second time.
    expect(await restoreToolFiles(ctx, base)).toEqual([]);
  });
});
