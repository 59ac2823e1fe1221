import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { GitError } from './git.js';
import { currentBranch, headSha, isGitRepo } from './repo.js';

describe('repository queries', () => {
  let repo: TempRepo | undefined;
  let plain: string | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    if (plain) await rm(plain, { recursive: true, force: true });
    repo = undefined;
    plain = undefined;
  });

  it('headSha is null before the first commit and the commit after it', async () => {
    repo = await makeTempRepo();
    expect(await headSha(repo.dir)).toBeNull();
    const sha = await repo.commit('first', { 'a.txt': 'a' });
    expect(await headSha(repo.dir)).toBe(sha);
    expect(sha).toMatch(/^[0-9a-f]{40,64}$/);
  });

  it('headSha throws outside a repository rather than claiming no commits', async () => {
    plain = await mkdtemp(path.join(tmpdir(), 'ralph-plain-'));
    await expect(headSha(plain)).rejects.toBeInstanceOf(GitError);
  });

  it('isGitRepo tells repositories, plain folders and missing folders apart', async () => {
    repo = await makeTempRepo();
    plain = await mkdtemp(path.join(tmpdir(), 'ralph-plain-'));
    expect(await isGitRepo(repo.dir)).toBe(true);
    expect(await isGitRepo(plain)).toBe(false);
    expect(await isGitRepo(path.join(plain, 'missing'))).toBe(false);
  });

  it('currentBranch names the branch, also when unborn, and is null when detached', async () => {
    repo = await makeTempRepo();
    expect(await currentBranch(repo.dir)).toBe('main');
    const first = await repo.commit('first');
    await repo.git('switch', '--quiet', '-c', 'ralph/feature');
    expect(await currentBranch(repo.dir)).toBe('ralph/feature');
    await repo.git('switch', '--quiet', '--detach', first);
    expect(await currentBranch(repo.dir)).toBeNull();
  });
});
