import path from 'node:path';
import { execa } from 'execa';
import { rootOfRalphWorktree } from './layout.js';

/**
 * The git toplevel of `cwd`, else `cwd` itself. Inside one of ralph's own
 * worktrees this is the main checkout, because run state, locks and config
 * live there (`.ralph/runs/` is not part of the branch).
 */
export async function findProjectRoot(cwd: string): Promise<string> {
  const result = await execa('git', ['rev-parse', '--show-toplevel'], { cwd, reject: false });
  const top = result.exitCode === 0 && typeof result.stdout === 'string' ? result.stdout.trim() : '';
  if (top === '') return path.resolve(cwd);
  return rootOfRalphWorktree(top) ?? top;
}
