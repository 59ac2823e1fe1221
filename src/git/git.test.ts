import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { GitError, git, runGit } from './git.js';

describe('git', () => {
  let repo: TempRepo | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    repo = undefined;
  });

  it('returns stdout trimmed', async () => {
    repo = await makeTempRepo();
    expect(await git(['rev-parse', '--is-inside-work-tree'], { cwd: repo.dir })).toBe('true');
  });

  it('passes arguments verbatim, never through a shell', async () => {
    repo = await makeTempRepo();
    const message = 'feat: $(touch pwned) `id` && echo "hi"; *';
    await repo.commit(message);
    expect(await git(['log', '-1', '--format=%s'], { cwd: repo.dir })).toBe(message);
  });

  it('throws a GitError carrying the exit code and stderr', async () => {
    repo = await makeTempRepo();
    const error = await git(['rev-parse', '--verify', 'no-such-ref'], { cwd: repo.dir }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GitError);
    if (!(error instanceof GitError)) return;
    expect(error.gitExitCode).toBe(128);
    expect(error.stderr).toMatch(/no-such-ref|Needed a single revision/);
    expect(error.args).toEqual(['rev-parse', '--verify', 'no-such-ref']);
    expect(error.code).toBe('git');
  });

  it('returns a failing result instead of throwing with allowFailure', async () => {
    repo = await makeTempRepo();
    const result = await runGit(['rev-parse', '--verify', 'nope'], { cwd: repo.dir, allowFailure: true });
    expect(result.exitCode).toBe(128);
    expect(result.stderr).not.toBe('');
    expect(await git(['rev-parse', '--verify', '-q', 'nope'], { cwd: repo.dir, allowFailure: true })).toBe(
      '',
    );
  });

  it('throws a GitError when the directory does not exist, even with allowFailure', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ralph-git-missing-'));
    await rm(dir, { recursive: true });
    await expect(git(['status'], { cwd: dir, allowFailure: true })).rejects.toBeInstanceOf(GitError);
  });

  it('disables terminal prompts so a credential request fails instead of hanging', async () => {
    repo = await makeTempRepo();
    const env = await runGit(['-c', 'alias.env=!env', 'env'], { cwd: repo.dir });
    expect(env.stdout).toMatch(/^GIT_TERMINAL_PROMPT=0$/m);
  });

  it('passes extra environment through', async () => {
    repo = await makeTempRepo();
    const env = await runGit(['-c', 'alias.env=!env', 'env'], {
      cwd: repo.dir,
      env: { RALPH_TEST_VAR: 'yes' },
    });
    expect(env.stdout).toMatch(/^RALPH_TEST_VAR=yes$/m);
  });

  it('ignores repository-locating variables inherited from a git hook', async () => {
    repo = await makeTempRepo();
    const other = await makeTempRepo();
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = path.join(other.dir, '.git');
    try {
      await repo.commit('in repo');
      expect(await git(['log', '-1', '--format=%s'], { cwd: repo.dir })).toBe('in repo');
      expect(await git(['rev-parse', '--verify', '-q', 'HEAD'], { cwd: other.dir, allowFailure: true })).toBe(
        '',
      );
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
      await other.cleanup();
    }
  });
});
