import path from 'node:path';
import { GitError, git } from '../git/git.js';
import { rootOfRalphWorktree } from './layout.js';

/**
 * The git toplevel of `cwd`, else `cwd` itself. Inside one of ralph's own
 * worktrees this is the main checkout, because run state, locks and config
 * live there (`.ralph/runs/` is not part of the branch).
 */
export async function findProjectRoot(cwd: string): Promise<string> {
  return (await locateProject(cwd)).root;
}

/** The project root, and whether git knows it: one git process answers both. */
export async function locateProject(cwd: string): Promise<{ root: string; inGit: boolean }> {
  const top = await git(['rev-parse', '--show-toplevel'], { cwd, allowFailure: true }).catch((error) => {
    // No git, or a directory git cannot use: not a repository, then.
    if (error instanceof GitError) return '';
    throw error;
  });
  if (top === '') return { root: path.resolve(cwd), inGit: false };
  return { root: rootOfRalphWorktree(top) ?? top, inGit: true };
}
