import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { listRalphWorktrees } from './ralph-worktrees.js';

describe('listRalphWorktrees', () => {
  let repo: TempRepo | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    repo = undefined;
  });

  it('lists registered, missing and unregistered worktrees, before and after git has any', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { 'a.txt': 'a' });
    const parent = path.join(repo.dir, '.ralph', 'worktrees');
    await mkdir(path.join(parent, 'stray'), { recursive: true });
    // No linked work tree yet: only the stray folder.
    expect(await listRalphWorktrees(repo.dir, parent)).toEqual([
      { name: 'stray', path: path.join(parent, 'stray'), branch: null, registered: false, present: true },
    ]);

    await repo.git('worktree', 'add', '-q', '-b', 'ralph/one', path.join(parent, 'one'));
    await repo.git('worktree', 'add', '-q', '-b', 'ralph/gone', path.join(parent, 'gone'));
    await rm(path.join(parent, 'gone'), { recursive: true });
    expect(await listRalphWorktrees(repo.dir, parent)).toEqual([
      {
        name: 'gone',
        path: path.join(parent, 'gone'),
        branch: 'ralph/gone',
        registered: true,
        present: false,
      },
      { name: 'one', path: path.join(parent, 'one'), branch: 'ralph/one', registered: true, present: true },
      { name: 'stray', path: path.join(parent, 'stray'), branch: null, registered: false, present: true },
    ]);

    // From inside a linked work tree (a `.git` file), git is asked as before.
    const fromInside = await listRalphWorktrees(path.join(parent, 'one'), parent);
    expect(fromInside.map((w) => w.name)).toEqual(['gone', 'one', 'stray']);
  });
});
