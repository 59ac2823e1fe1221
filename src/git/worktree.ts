import { realpathSync } from 'node:fs';
import path from 'node:path';
import { git, runGit } from './git.js';

export interface WorktreeInfo {
  /** Absolute path of the work tree, as git recorded it. */
  path: string;
  head: string | null;
  /** Short branch name, or null when detached (or bare). */
  branch: string | null;
  bare: boolean;
  locked: boolean;
  /** Registered, but its folder is gone: `git worktree prune` would forget it. */
  prunable: boolean;
}

/**
 * Parses `git worktree list --porcelain -z`: records of `key value` fields,
 * each record ended by an empty field. The first record is the main work tree.
 */
export function parseWorktreeList(output: string): WorktreeInfo[] {
  const worktrees: WorktreeInfo[] = [];
  let current: WorktreeInfo | null = null;
  for (const field of output.split('\0')) {
    if (field === '') {
      if (current) worktrees.push(current);
      current = null;
      continue;
    }
    const space = field.indexOf(' ');
    const key = space < 0 ? field : field.slice(0, space);
    const value = space < 0 ? '' : field.slice(space + 1);
    if (key === 'worktree') {
      if (current) worktrees.push(current);
      current = { path: value, head: null, branch: null, bare: false, locked: false, prunable: false };
    } else if (current) {
      if (key === 'HEAD') current.head = value;
      else if (key === 'branch') current.branch = value.replace(/^refs\/heads\//, '');
      else if (key === 'bare') current.bare = true;
      else if (key === 'locked') current.locked = true;
      else if (key === 'prunable') current.prunable = true;
    }
  }
  if (current) worktrees.push(current);
  return worktrees;
}

/** Every work tree of the repository `cwd` belongs to, the main one first. */
export async function listWorktrees(cwd: string): Promise<WorktreeInfo[]> {
  const { stdout } = await runGit(['worktree', 'list', '--porcelain', '-z'], { cwd });
  return parseWorktreeList(stdout);
}

/** The registered work tree at `dir`, if any (paths compared after resolving symlinks). */
export async function findWorktree(cwd: string, dir: string): Promise<WorktreeInfo | null> {
  const wanted = canonicalPath(dir);
  return (await listWorktrees(cwd)).find((w) => canonicalPath(w.path) === wanted) ?? null;
}

export interface AddWorktreeOptions {
  dir: string;
  branch: string;
  /** Create `branch` here first, from this commit-ish; without it `branch` must exist. */
  createFrom?: string;
}

/** `git worktree add`: checks out an existing branch, or creates one (not tracking anything). */
export async function addWorktree(cwd: string, options: AddWorktreeOptions): Promise<void> {
  const args =
    options.createFrom === undefined
      ? ['worktree', 'add', '--quiet', options.dir, options.branch]
      : ['worktree', 'add', '--quiet', '--no-track', '-b', options.branch, options.dir, options.createFrom];
  await git(args, { cwd });
}

/** A work tree at `commit` with a detached HEAD: a scratch checkout that moves no branch. */
export async function addDetachedWorktree(cwd: string, dir: string, commit: string): Promise<void> {
  await git(['worktree', 'add', '--quiet', '--detach', dir, commit], { cwd });
}

/** `git worktree remove`; `force` also discards uncommitted changes in it. The branch stays. */
export async function removeWorktree(
  cwd: string,
  dir: string,
  options: { force?: boolean } = {},
): Promise<void> {
  await git(['worktree', 'remove', ...(options.force ? ['--force'] : []), dir], { cwd });
}

/** Forgets registrations whose folder was deleted by hand. */
export async function pruneWorktrees(cwd: string): Promise<void> {
  await git(['worktree', 'prune'], { cwd });
}

/** The work tree's private git folder (`.git/worktrees/<id>` for a linked one), absolute. */
export async function worktreeGitDir(cwd: string): Promise<string> {
  return path.resolve(cwd, await git(['rev-parse', '--git-dir'], { cwd }));
}

/** `p` with symlinks resolved as far as it exists, so `/tmp/x` and `/private/tmp/x` compare equal. */
export function canonicalPath(p: string): string {
  const resolved = path.resolve(p);
  try {
    return realpathSync(resolved);
  } catch {
    const parent = path.dirname(resolved);
    return parent === resolved ? resolved : path.join(canonicalPath(parent), path.basename(resolved));
  }
}
