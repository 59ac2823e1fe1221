import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { git, runGit } from './git.js';
import { parsePorcelainZ, type StatusEntry } from './status.js';

/**
 * Keeping a worktree's own environment (what its setup command wrote) out of
 * git's view in that worktree only, with git's own mechanisms, so that every
 * git in it agrees — the agent's `git add -A`, ralph's status and rollback,
 * the user's:
 *
 * - A tracked file setup changed is marked `skip-worktree` in the worktree's
 *   own index: not listed, not staged by `git add -A`, kept by `reset --hard`.
 * - An untracked path setup created is ignored through `core.excludesFile`,
 *   set for this worktree alone by an `includeIf "gitdir:…"` entry. A
 *   worktree's `info/exclude` would not do: git reads the one in the common
 *   directory, shared by every checkout. `core.excludesFile` replaces the
 *   user's own excludes file, so its patterns are copied in first.
 */

/** Uncommitted changes with untracked folders listed once (`build/`), as exclude patterns want them. */
export async function changedPaths(cwd: string): Promise<StatusEntry[]> {
  const args = ['status', '--porcelain=v1', '-z', '--untracked-files=normal', '--no-renames'];
  return parsePorcelainZ((await runGit(args, { cwd })).stdout);
}

/** Puts the index back to HEAD for `paths`, leaving the files as they are. */
export async function unstage(cwd: string, paths: readonly string[]): Promise<void> {
  if (paths.length > 0) await git(['reset', '--quiet', '--', ...paths.map(literal)], { cwd });
}

export async function skipWorktree(cwd: string, paths: readonly string[]): Promise<void> {
  if (paths.length > 0) await git(['update-index', '--skip-worktree', '--', ...paths], { cwd });
}

/** Makes `patterns` (anchored at the worktree's root) ignored in the worktree at `cwd` only. */
export async function excludeInWorktree(cwd: string, patterns: readonly string[]): Promise<void> {
  const gitDir = await git(['rev-parse', '--absolute-git-dir'], { cwd });
  const excludes = path.join(gitDir, 'ralph-exclude');
  const config = path.join(gitDir, 'ralph.gitconfig');
  const own = await userExcludes(cwd);
  const lines = [
    '# Written by ralph: the user excludes file, then what the worktree setup command made.',
    own.trimEnd(),
    ...patterns.map((p) => `/${escapePattern(p)}`),
  ];
  await writeFile(excludes, `${lines.filter((l) => l !== '').join('\n')}\n`);
  await git(['config', '--file', config, 'core.excludesFile', excludes], { cwd });
  await git(['config', '--local', `includeIf.gitdir:${escapeGlob(gitDir)}.path`, config], { cwd });
}

/**
 * For a worktree about to be removed: returns what drops its include entry
 * from the shared config once it is gone (while it exists, the entry is what
 * keeps its setup output from counting as uncommitted work).
 */
export async function worktreeExcludesForgetter(cwd: string): Promise<(root: string) => Promise<void>> {
  const gitDir = await git(['rev-parse', '--absolute-git-dir'], { cwd });
  const key = `includeIf.gitdir:${escapeGlob(gitDir)}.path`;
  return async (root) => {
    await git(['config', '--local', '--unset-all', key], { cwd: root, allowFailure: true });
  };
}

/** The user's own excludes file as git would read it without ralph's include, or ''. */
async function userExcludes(cwd: string): Promise<string> {
  const configured = await git(['config', '--no-includes', '--path', '--get', 'core.excludesFile'], {
    cwd,
    allowFailure: true,
  });
  const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  const file = configured !== '' ? configured : path.join(xdg, 'git', 'ignore');
  return readFile(file, 'utf8').catch(() => '');
}

const literal = (p: string): string => `:(top,literal)${p}`;

/** Wildcards and a leading `!`/`#` read literally in an exclude pattern. */
const escapePattern = (p: string): string => p.replace(/[\\*?[\]!#]/g, '\\$&').replace(/ $/, '\\ ');

/** A path read literally by `includeIf "gitdir:…"`, which matches with wildcards. */
const escapeGlob = (p: string): string => p.replace(/[\\*?[\]]/g, '\\$&');
