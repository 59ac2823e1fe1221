import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { GitError } from './git.js';
import { commitsSince } from './history.js';
import { headSha } from './repo.js';
import { stashToRescueRef } from './rescue.js';
import { restoreTo } from './reset.js';
import { statusPorcelain } from './status.js';

describe('stashToRescueRef', () => {
  let repo: TempRepo | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    repo = undefined;
  });

  it('saves commits since base and the dirty tree, including untracked files, touching nothing', async () => {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { '.gitignore': 'ignored/\n', 'a.txt': 'a', 'staged.txt': 's' });
    const work = await repo.commit('agent commit', { 'b.txt': 'b' });
    await repo.write('a.txt', 'edited');
    await repo.write('staged.txt', 'staged edit');
    await repo.git('add', 'staged.txt');
    await repo.write('new/untracked.txt', 'u');
    await repo.write('ignored/cache.bin', 'i');
    await repo.write('.ralph/runs/x/state.json', '{}');
    const statusBefore = await statusPorcelain(repo.dir);

    const result = await stashToRescueRef(repo.dir, 'main/US-001/1', 'ralph: rescue US-001 attempt 1');

    expect(result.ref).toBe('refs/ralph/rescue/main/US-001/1');
    expect(result.snapshot).toBe(true);
    expect(await repo.git('rev-parse', result.ref)).toBe(result.sha);
    // Nothing checked out, staged or committed changed.
    expect(await headSha(repo.dir)).toBe(work);
    expect(await statusPorcelain(repo.dir)).toEqual(statusBefore);
    expect(await repo.git('diff', '--cached', '--name-only')).toBe('staged.txt');
    // The snapshot's parent is HEAD, so the agent's commits are reachable from the ref.
    expect(await repo.git('rev-parse', `${result.sha}^`)).toBe(work);
    expect(await repo.git('show', `${result.ref}:a.txt`)).toBe('edited');
    expect(await repo.git('show', `${result.ref}:staged.txt`)).toBe('staged edit');
    expect(await repo.git('show', `${result.ref}:new/untracked.txt`)).toBe('u');
    expect(await repo.git('show', `${result.ref}:b.txt`)).toBe('b');
    const files = (await repo.git('ls-tree', '-r', '--name-only', result.ref)).split('\n');
    expect(files).not.toContain('ignored/cache.bin');
    expect(files.some((f) => f.startsWith('.ralph/'))).toBe(false);
    expect(await repo.git('log', '-1', '--format=%s', result.ref)).toBe('ralph: rescue US-001 attempt 1');

    // After the rollback the work is still there to recover.
    await restoreTo(repo.dir, base);
    await repo.git('switch', '--quiet', '-c', 'recovered', result.ref);
    expect(await readFile(path.join(repo.dir, 'new/untracked.txt'), 'utf8')).toBe('u');
  });

  it('points at HEAD when there is nothing uncommitted', async () => {
    repo = await makeTempRepo();
    await repo.commit('base');
    const work = await repo.commit('work', { 'x.txt': 'x' });
    const result = await stashToRescueRef(repo.dir, 'clean', 'rescue');
    expect(result).toEqual({ ref: 'refs/ralph/rescue/clean', sha: work, snapshot: false });
  });

  it('works in a repository with no commits', async () => {
    repo = await makeTempRepo();
    await repo.write('first.txt', 'f');
    const result = await stashToRescueRef(repo.dir, 'unborn', 'rescue');
    expect(result.snapshot).toBe(true);
    expect(await repo.git('show', `${result.ref}:first.txt`)).toBe('f');
    expect(await headSha(repo.dir)).toBeNull();
  });

  it('needs no configured identity', async () => {
    repo = await makeTempRepo();
    await repo.commit('base');
    await repo.git('config', '--unset', 'user.name');
    await repo.git('config', '--unset', 'user.email');
    await repo.write('x.txt', 'x');
    const result = await stashToRescueRef(repo.dir, 'anon', 'rescue');
    expect(await repo.git('log', '-1', '--format=%an', result.ref)).toBe('ralph');
  });

  it('never overwrites an existing rescue ref', async () => {
    repo = await makeTempRepo();
    await repo.commit('base');
    await repo.write('x.txt', '1');
    const first = await stashToRescueRef(repo.dir, 'same', 'one');
    await repo.write('x.txt', '2');
    await expect(stashToRescueRef(repo.dir, 'same', 'two')).rejects.toBeInstanceOf(GitError);
    expect(await repo.git('rev-parse', first.ref)).toBe(first.sha);
  });

  it('rejects names that are not valid refs', async () => {
    repo = await makeTempRepo();
    await repo.commit('base');
    for (const name of ['', 'a..b', 'with space', 'x.lock', '/abs']) {
      await expect(stashToRescueRef(repo.dir, name, 'm')).rejects.toBeInstanceOf(GitError);
    }
    expect(await commitsSince(repo.dir, null)).toHaveLength(1);
  });
});
