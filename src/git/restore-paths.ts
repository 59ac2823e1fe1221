import { runGit } from './git.js';

/**
 * Puts `paths` back as they were at `sha`, in the index and the work tree,
 * whatever happened to them since (edits, commits, deletions). Paths that did
 * not exist at `sha` are left alone. Returns the paths that were restored.
 */
export async function restorePathsFrom(
  cwd: string,
  sha: string,
  paths: readonly string[],
): Promise<string[]> {
  const restored: string[] = [];
  if (paths.length === 0) return restored;
  // The common case, nothing touched them, costs one git call instead of two a path.
  const untouched = await runGit(['diff', '--quiet', sha, '--', ...paths.map((p) => `:(literal)${p}`)], {
    cwd,
    allowFailure: true,
  });
  if (untouched.exitCode === 0) return restored;
  for (const path of paths) {
    const existed = await runGit(['cat-file', '-e', `${sha}:${path}`], { cwd, allowFailure: true });
    if (existed.exitCode !== 0) continue;
    const diff = await runGit(['diff', '--quiet', sha, '--', path], { cwd, allowFailure: true });
    if (diff.exitCode === 0) continue;
    await runGit(['restore', `--source=${sha}`, '--staged', '--worktree', '--', path], { cwd });
    restored.push(path);
  }
  return restored;
}
