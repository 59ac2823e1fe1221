import { GitError, git } from './git.js';

/** True when `cwd` is inside a git work tree. False for a missing directory too. */
export async function isGitRepo(cwd: string): Promise<boolean> {
  try {
    return (await git(['rev-parse', '--is-inside-work-tree'], { cwd, allowFailure: true })) === 'true';
  } catch (error) {
    if (error instanceof GitError) return false;
    throw error;
  }
}

/** The commit HEAD points at, or null in a repository with no commits yet. */
export async function headSha(cwd: string): Promise<string | null> {
  const sha = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd, allowFailure: true });
  if (sha !== '') return sha;
  // An empty answer is also what a broken repository gives; make that an error, not "no commits".
  await git(['rev-parse', '--git-dir'], { cwd });
  return null;
}

/** The checked-out branch's short name (also on an unborn branch), or null when HEAD is detached. */
export async function currentBranch(cwd: string): Promise<string | null> {
  const name = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd, allowFailure: true });
  if (name !== '') return name;
  await git(['rev-parse', '--git-dir'], { cwd });
  return null;
}
