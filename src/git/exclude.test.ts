import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { ignoreLocally } from './exclude.js';

describe('ignoreLocally', () => {
  let repo: TempRepo | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    repo = undefined;
  });

  it('ignores the folders through info/exclude, once, leaving git status clean', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { 'README.md': '#\n' });
    await repo.write('.ralph/runs/demo/lock', '{}');
    await repo.write('.ralph/worktrees/demo/file', 'x');

    expect(await ignoreLocally(repo.dir, ['.ralph/runs/', '.ralph/worktrees/'])).toEqual([
      '/.ralph/runs/',
      '/.ralph/worktrees/',
    ]);
    expect(await ignoreLocally(repo.dir, ['.ralph/runs/', '.ralph/worktrees/'])).toEqual([]);
    expect(await repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
    const exclude = await readFile(path.join(repo.dir, '.git/info/exclude'), 'utf8');
    expect(exclude.match(/\/\.ralph\/runs\//g)).toHaveLength(1);
  });

  it('adds nothing for a folder a .gitignore already covers', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { '.ralph/.gitignore': 'runs/\n' });
    expect(await ignoreLocally(repo.dir, ['.ralph/runs/', '.ralph/worktrees/'])).toEqual([
      '/.ralph/worktrees/',
    ]);
  });
});
