import { isGitRepo } from '../git/index.js';
import { listRalphWorktrees } from '../git/ralph-worktrees.js';
import { type GoalRunSummary, summarizeGoalRun } from '../goal/goal-summary.js';
import { goalRunFiles, readGoalProgress } from '../goal/progress-file.js';
import type { GoalProgress } from '../goal/progress-schema.js';
import { worktreesDir } from '../state/layout.js';
import { inspectLock } from '../state/lock.js';
import type { GoalRunTarget } from './goal-run-target.js';

export { findGoalRun, type GoalRunTarget } from './goal-run-target.js';

export interface GoalRunView {
  progress: GoalProgress;
  summary: GoalRunSummary;
  /** The run's worktree and its branch, when it has one. */
  worktree: { path: string; branch: string | null } | null;
  /** The sandbox of the live run (`bwrap`, `sandbox-exec`), as its lock says; null when none runs sandboxed. */
  sandbox: string | null;
}

/** A goal run's saved progress, summarized; a progress file that does not read is an exit-2 error. */
export async function readGoalRun(target: GoalRunTarget): Promise<GoalRunView> {
  const files = goalRunFiles(target.runDir);
  const progress = await readGoalProgress(files.progress);
  if (progress === null) throw new Error(`no goal run at ${target.runDir}`);
  const lock = await inspectLock(files.lock);
  const running = lock.kind === 'held';
  const worktrees = (await isGitRepo(target.root))
    ? await listRalphWorktrees(target.root, worktreesDir(target.root))
    : [];
  const w = worktrees.find((x) => x.name === target.name && x.registered && x.present);
  return {
    progress,
    summary: summarizeGoalRun(progress, running),
    worktree: w ? { path: w.path, branch: w.branch } : null,
    sandbox: lock.kind === 'held' ? (lock.info?.sandbox ?? null) : null,
  };
}
