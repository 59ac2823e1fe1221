import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findProjectRoot } from './project-root.js';

let dir: string;

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ralph-root-')));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) =>
  execa('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd });

describe('findProjectRoot', () => {
  it('returns the git toplevel from a subdirectory', async () => {
    const repo = path.join(dir, 'repo');
    await fs.mkdir(path.join(repo, 'src', 'deep'), { recursive: true });
    await git(repo, 'init', '-q');
    expect(await findProjectRoot(path.join(repo, 'src', 'deep'))).toBe(repo);
  });

  it('returns cwd outside a git repository', async () => {
    const plain = path.join(dir, 'plain');
    await fs.mkdir(plain);
    // Stops git from finding a repository above the temp dir on machines where there is one.
    const saved = process.env.GIT_CEILING_DIRECTORIES;
    process.env.GIT_CEILING_DIRECTORIES = dir;
    try {
      expect(await findProjectRoot(plain)).toBe(plain);
    } finally {
      if (saved === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
      else process.env.GIT_CEILING_DIRECTORIES = saved;
    }
  });

  it('returns the main checkout from inside a ralph worktree', async () => {
    const repo = path.join(dir, 'repo');
    await fs.mkdir(repo);
    await git(repo, 'init', '-q');
    await fs.writeFile(path.join(repo, 'README.md'), 'hi\n');
    await git(repo, 'add', 'README.md');
    await git(repo, 'commit', '-q', '-m', 'init');
    const worktree = path.join(repo, '.ralph', 'worktrees', 'main');
    await git(repo, 'worktree', 'add', '-q', '-b', 'ralph/main', worktree);
    expect(await findProjectRoot(worktree)).toBe(repo);
  });
});
