import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import {
  addWorktree,
  canonicalPath,
  findWorktree,
  listWorktrees,
  parseWorktreeList,
  pruneWorktrees,
  removeWorktree,
  worktreeGitDir,
} from './worktree.js';

describe('parseWorktreeList', () => {
  it('reads branches, detached and prunable records', () => {
    const out = [
      'worktree /repo',
      'HEAD aaa',
      'branch refs/heads/main',
      '',
      'worktree /repo/.ralph/worktrees/x',
      'HEAD bbb',
      'branch refs/heads/ralph/x',
      'prunable gitdir file points to non-existent location',
      '',
      'worktree /elsewhere',
      'HEAD ccc',
      'detached',
      'locked',
      '',
      '',
    ].join('\0');
    expect(parseWorktreeList(out)).toEqual([
      { path: '/repo', head: 'aaa', branch: 'main', bare: false, locked: false, prunable: false },
      {
        path: '/repo/.ralph/worktrees/x',
        head: 'bbb',
        branch: 'ralph/x',
        bare: false,
        locked: false,
        prunable: true,
      },
      { path: '/elsewhere', head: 'ccc', branch: null, bare: false, locked: true, prunable: false },
    ]);
  });

  it('returns nothing for empty output', () => {
    expect(parseWorktreeList('')).toEqual([]);
  });
});

describe('worktrees in a real repository', () => {
  let repo: TempRepo | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    repo = undefined;
  });

  it('adds a worktree on a new branch, finds it, and removes it keeping the branch', async () => {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { 'a.txt': 'a' });
    const dir = path.join(repo.dir, '.ralph', 'worktrees', 'x');
    await addWorktree(repo.dir, { dir, branch: 'ralph/x', createFrom: 'main' });
    const found = await findWorktree(repo.dir, dir);
    expect(found).toMatchObject({ branch: 'ralph/x', head: base, prunable: false });
    expect((await listWorktrees(repo.dir)).map((w) => w.branch)).toEqual(['main', 'ralph/x']);
    expect(await worktreeGitDir(dir)).toBe(path.join(canonicalPath(repo.dir), '.git', 'worktrees', 'x'));

    await removeWorktree(repo.dir, dir);
    expect(existsSync(dir)).toBe(false);
    expect(await findWorktree(repo.dir, dir)).toBeNull();
    expect(await repo.git('rev-parse', 'ralph/x')).toBe(base);
  });

  it('checks out an existing branch, refuses to remove a dirty worktree without force', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { 'a.txt': 'a' });
    await repo.git('branch', 'feature');
    const dir = path.join(repo.dir, 'wt');
    await addWorktree(repo.dir, { dir, branch: 'feature' });
    expect((await findWorktree(repo.dir, dir))?.branch).toBe('feature');
    await repo.write('wt/a.txt', 'changed');
    await expect(removeWorktree(repo.dir, dir)).rejects.toThrow(/modified or untracked|contains/);
    expect(existsSync(dir)).toBe(true);
    await removeWorktree(repo.dir, dir, { force: true });
    expect(existsSync(dir)).toBe(false);
  });

  it('marks a worktree whose folder was deleted as prunable, and prune forgets it', async () => {
    repo = await makeTempRepo();
    await repo.commit('base');
    const dir = path.join(repo.dir, 'gone');
    await addWorktree(repo.dir, { dir, branch: 'g', createFrom: 'HEAD' });
    await rm(dir, { recursive: true });
    expect((await findWorktree(repo.dir, dir))?.prunable).toBe(true);
    await pruneWorktrees(repo.dir);
    expect(await findWorktree(repo.dir, dir)).toBeNull();
  });
});
