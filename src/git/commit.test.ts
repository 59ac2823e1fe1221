import { chmod, mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { commitPaths } from './commit.js';
import { headSha } from './repo.js';

describe('commitPaths', () => {
  let repo: TempRepo | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    repo = undefined;
  });

  it('commits exactly the given paths and leaves other changes alone', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { 'prd.json': '{}', 'other.txt': 'o', 'gone.md': 'g' });
    await repo.write('prd.json', '{"done":true}');
    await repo.write('progress.md', 'new file');
    await unlink(path.join(repo.dir, 'gone.md'));
    await repo.write('other.txt', 'agent edit');
    await repo.write('staged-elsewhere.txt', 's');
    await repo.git('add', 'staged-elsewhere.txt');

    const sha = await commitPaths(repo.dir, ['prd.json', 'progress.md', 'gone.md'], 'chore: US-001 passed');

    expect(sha).toBe(await headSha(repo.dir));
    expect(await repo.git('log', '-1', '--format=%s')).toBe('chore: US-001 passed');
    expect((await repo.git('show', '--name-status', '--format=', 'HEAD')).split('\n').sort()).toEqual([
      'A\tprogress.md',
      'D\tgone.md',
      'M\tprd.json',
    ]);
    // Still staged / still modified, not committed.
    expect(await repo.git('diff', '--cached', '--name-only')).toBe('staged-elsewhere.txt');
    expect(await repo.git('diff', '--name-only')).toBe('other.txt');
  });

  it("commits a folder's changed files one by one, never a temporary file left in it", async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { 'specs/epic-1/story-1.1.md': 'a' });
    await repo.write('specs/epic-1/story-1.1.md', 'status: done');
    await repo.write('specs/epic-1/.story-1.1.md.ralph-tmp-4242-1', 'half');
    await repo.write('.ralph/prds/new/prd.json', '{}');
    await repo.write('.ralph/prds/new/.prd.json.ralph-tmp-4242-2', '{');

    await commitPaths(repo.dir, ['specs', '.ralph/prds/new'], 'chore: US-001 passed');

    expect((await repo.git('show', '--name-only', '--format=', 'HEAD')).split('\n').sort()).toEqual([
      '.ralph/prds/new/prd.json',
      'specs/epic-1/story-1.1.md',
    ]);
    expect(await repo.git('status', '--porcelain', '--untracked-files=all')).toBe(
      '?? .ralph/prds/new/.prd.json.ralph-tmp-4242-2\n?? specs/epic-1/.story-1.1.md.ralph-tmp-4242-1',
    );
  });

  it('returns null and makes no commit when the paths have no change', async () => {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { 'prd.json': '{}' });
    await repo.write('unrelated.txt', 'u');
    expect(await commitPaths(repo.dir, ['prd.json', 'never-existed.md'], 'msg')).toBeNull();
    expect(await commitPaths(repo.dir, [], 'msg')).toBeNull();
    expect(await headSha(repo.dir)).toBe(base);
  });

  it('takes paths relative to cwd and treats glob characters literally', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { 'docs/a.md': 'a', 'docs/b.md': 'b' });
    await repo.write('docs/a.md', 'a2');
    await repo.write('docs/b.md', 'b2');
    await repo.write('docs/*.md', 'star');
    await commitPaths(path.join(repo.dir, 'docs'), ['*.md'], 'literal star');
    expect(await repo.git('show', '--name-only', '--format=', 'HEAD')).toBe('docs/*.md');
  });

  it('works for the first commit of a repository', async () => {
    repo = await makeTempRepo();
    await repo.write('a.txt', 'a');
    const sha = await commitPaths(repo.dir, ['a.txt'], 'first');
    expect(sha).not.toBeNull();
    expect(await headSha(repo.dir)).toBe(sha);
  });

  it('runs no hook: a pre-commit hook (the agent could have written it) neither runs nor blocks', async () => {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { 'a.txt': 'a' });
    const hooks = path.join(repo.dir, '.git', 'hooks');
    await mkdir(hooks, { recursive: true });
    await writeFile(path.join(hooks, 'pre-commit'), '#!/bin/sh\necho "hook says no" >&2\nexit 1\n');
    await chmod(path.join(hooks, 'pre-commit'), 0o755);
    await repo.write('a.txt', 'b');
    const sha = await commitPaths(repo.dir, ['a.txt'], 'not blocked');
    expect(sha).not.toBeNull();
    expect(sha).not.toBe(base);
    expect(await headSha(repo.dir)).toBe(sha);
  });
});
