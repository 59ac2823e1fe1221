import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { GitError } from './git.js';
import { commitsSince, filesChangedSince, isAncestor } from './history.js';

describe('history', () => {
  let repo: TempRepo | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    repo = undefined;
  });

  it('commitsSince lists new commits oldest first with their subjects', async () => {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { 'a.txt': 'a' });
    expect(await commitsSince(repo.dir, base)).toEqual([]);
    const one = await repo.commit('feat: US-001 - First | with ; odd chars');
    const two = await repo.commit('fix: second');
    expect(await commitsSince(repo.dir, base)).toEqual([
      { sha: one, subject: 'feat: US-001 - First | with ; odd chars' },
      { sha: two, subject: 'fix: second' },
    ]);
  });

  it('commitsSince with a null base lists every commit, and nothing in an unborn repo', async () => {
    repo = await makeTempRepo();
    expect(await commitsSince(repo.dir, null)).toEqual([]);
    const one = await repo.commit('one');
    const two = await repo.commit('two');
    expect((await commitsSince(repo.dir, null)).map((c) => c.sha)).toEqual([one, two]);
  });

  it('commitsSince throws for an unknown base', async () => {
    repo = await makeTempRepo();
    await repo.commit('one');
    await expect(commitsSince(repo.dir, 'f'.repeat(40))).rejects.toBeInstanceOf(GitError);
  });

  it('with a base, both are empty once HEAD is unborn again (an orphan branch) and throw for an unknown base', async () => {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { 'a.txt': 'a' });
    await repo.git('checkout', '-q', '--orphan', 'fresh');
    expect(await commitsSince(repo.dir, base)).toEqual([]);
    expect(await filesChangedSince(repo.dir, base)).toEqual([]);
    await repo.commit('first on fresh', { 'b.txt': 'b' });
    await expect(filesChangedSince(repo.dir, 'f'.repeat(40))).rejects.toBeInstanceOf(GitError);
  });

  it('filesChangedSince lists files touched by new commits, not uncommitted ones', async () => {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { 'keep.txt': 'k', 'old.txt': 'o', 'edit.txt': 'e' });
    await repo.git('mv', 'old.txt', 'renamed.txt');
    await repo.commit('work', { 'edit.txt': 'e2', 'src/new.ts': 'n' });
    await repo.write('dirty.txt', 'not committed');
    expect(await filesChangedSince(repo.dir, base)).toEqual([
      'edit.txt',
      'old.txt',
      'renamed.txt',
      'src/new.ts',
    ]);
    expect(await filesChangedSince(repo.dir, null)).toEqual([
      'edit.txt',
      'keep.txt',
      'renamed.txt',
      'src/new.ts',
    ]);
  });

  it('filesChangedSince is empty in an unborn repo', async () => {
    repo = await makeTempRepo();
    expect(await filesChangedSince(repo.dir, null)).toEqual([]);
  });

  it('isAncestor answers yes, no, and throws for unknown revisions', async () => {
    repo = await makeTempRepo();
    const a = await repo.commit('a');
    const b = await repo.commit('b');
    expect(await isAncestor(repo.dir, a, b)).toBe(true);
    expect(await isAncestor(repo.dir, b, a)).toBe(false);
    await expect(isAncestor(repo.dir, 'e'.repeat(40), b)).rejects.toBeInstanceOf(GitError);
  });
});
