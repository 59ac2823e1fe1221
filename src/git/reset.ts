import { git } from './git.js';

/**
 * The tool's own folder. Cleaning never touches it, even where `.gitignore`
 * does not list it (a project that has not run `ralph init`).
 */
const KEEP = ':(top,exclude).ralph';

/** Moves the current branch, index and tracked files to `sha`. Untracked files stay; see `cleanUntracked`. */
export async function resetHardTo(cwd: string, sha: string): Promise<void> {
  await git(['reset', '--hard', '--quiet', sha, '--'], { cwd });
}

/**
 * Deletes untracked files and folders in the whole work tree (`git clean -fd`).
 * Ignored files are never touched (no `-x`), so build caches and `.ralph/runs`
 * survive, and `.ralph/` is excluded explicitly as well. Nested repositories
 * are left alone because `-f` is given only once.
 */
export async function cleanUntracked(cwd: string): Promise<void> {
  await git(['clean', '-f', '-d', '--quiet', '--', ':/', KEEP], { cwd });
}

/** `resetHardTo` then `cleanUntracked`: the tree exactly as it was at `sha`, ignored files aside. */
export async function restoreTo(cwd: string, sha: string): Promise<void> {
  await resetHardTo(cwd, sha);
  await cleanUntracked(cwd);
}
