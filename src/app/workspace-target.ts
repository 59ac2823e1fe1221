/**
 * Which PRD's checkout and branch `ralph merge` and `ralph clean` (and the
 * TUI's m and c) act on, and the refusal to act under a running loop.
 */
import { ExitCode, RalphError, UsageError } from '../core/errors.js';
import { ralphBranches } from '../git/branches.js';
import { listRalphWorktrees, type RalphWorktree } from '../git/ralph-worktrees.js';
import { canonicalPath } from '../git/worktree.js';
import { runPaths, validatePrdName, worktreeDir, worktreesDir } from '../state/layout.js';
import { inspectLock } from '../state/lock.js';
import { resolveTarget } from '../state/resolve-target.js';

export interface WorkspaceTarget {
  name: string;
  /** `.ralph/worktrees/<name>/`, whether or not it exists. */
  dir: string;
  worktree: RalphWorktree | null;
  /** The PRD's branch: the worktree's, else the one ralph recorded for this name. */
  branch: string | null;
}

/**
 * Which PRD `ralph merge` / `ralph clean` act on: the name given; else the
 * only ralph worktree; else the default PRD (the only one, or `main`).
 */
export async function findWorkspaceTarget(root: string, name: string | undefined): Promise<WorkspaceTarget> {
  const worktrees = await listRalphWorktrees(root, worktreesDir(root));
  let chosen = name === undefined ? undefined : validatePrdName(name);
  if (chosen === undefined) {
    const live = worktrees.filter((w) => w.registered && w.present);
    if (live.length === 1) chosen = live[0]?.name;
    else {
      try {
        chosen = (await resolveTarget(root)).name;
      } catch (error) {
        if (!(error instanceof UsageError) || live.length === 0) throw error;
        throw new UsageError('several PRD worktrees; say which one', [live.map((w) => w.name).join(', ')]);
      }
    }
  }
  if (chosen === undefined) throw new UsageError('no PRD named; say which one');
  const dir = worktreeDir(root, chosen);
  const worktree = worktrees.find((w) => canonicalPath(w.path) === canonicalPath(dir)) ?? null;
  let branch = worktree?.branch ?? null;
  if (branch === null) {
    const recorded = (await ralphBranches(root)).filter((b) => b.name === chosen);
    if (recorded.length > 1) {
      throw new UsageError(`several branches were made for ${chosen}`, [
        recorded.map((b) => b.branch).join(', '),
      ]);
    }
    branch = recorded[0]?.branch ?? null;
  }
  return { name: chosen, dir, worktree, branch };
}

/** Merging or removing under a running loop would pull the ground from under it. */
export async function refuseWhileRunning(root: string, name: string): Promise<void> {
  const lock = await inspectLock(runPaths(root, name).lock);
  if (lock.kind !== 'held') return;
  const who = lock.info ? ` (pid ${lock.info.pid} on ${lock.info.host})` : '';
  throw new RalphError(`a run of ${name} is in progress${who}; stop it first`, 'locked', ExitCode.Locked);
}
