import { isGitRepo } from '../git/index.js';
import { listRalphWorktrees } from '../git/ralph-worktrees.js';
import { isGoalRun, listGoalRuns } from '../goal/goal-runs.js';
import { type GoalRunSummary, summarizeGoalRun } from '../goal/goal-summary.js';
import { goalRunFiles, readGoalProgress } from '../goal/progress-file.js';
import type { GoalProgress } from '../goal/progress-schema.js';
import { runDir, worktreesDir } from '../state/layout.js';
import { inspectLock } from '../state/lock.js';
import { findProjectRoot } from '../state/project-root.js';
import { listPrdNames } from '../state/resolve-target.js';

export interface GoalRunTarget {
  root: string;
  name: string;
  /** `.ralph/runs/<name>/` */
  runDir: string;
}

/**
 * The goal run a `[target]` of `ralph status`, `report` or `logs` means, or
 * null when it means a PRD. A PRD wins a name both have; with no target, a
 * project without PRDs and with one goal run means that run.
 */
export async function findGoalRun(
  target: string | undefined,
  cwd = process.cwd(),
): Promise<GoalRunTarget | null> {
  const root = await findProjectRoot(cwd);
  const prds = await listPrdNames(root);
  let name: string | undefined;
  if (target === undefined || target === '') {
    const goals = prds.length === 0 ? await listGoalRuns(root) : [];
    name = goals.length === 1 ? goals[0] : undefined;
  } else if (!prds.includes(target) && isGoalRun(root, target)) {
    name = target;
  }
  return name === undefined ? null : { root, name, runDir: runDir(root, name) };
}

export interface GoalRunView {
  progress: GoalProgress;
  summary: GoalRunSummary;
  /** The run's worktree and its branch, when it has one. */
  worktree: { path: string; branch: string | null } | null;
}

/** A goal run's saved progress, summarized; a progress file that does not read is an exit-2 error. */
export async function readGoalRun(target: GoalRunTarget): Promise<GoalRunView> {
  const files = goalRunFiles(target.runDir);
  const progress = await readGoalProgress(files.progress);
  if (progress === null) throw new Error(`no goal run at ${target.runDir}`);
  const running = (await inspectLock(files.lock)).kind === 'held';
  const worktrees = (await isGitRepo(target.root))
    ? await listRalphWorktrees(target.root, worktreesDir(target.root))
    : [];
  const w = worktrees.find((x) => x.name === target.name && x.registered && x.present);
  return {
    progress,
    summary: summarizeGoalRun(progress, running),
    worktree: w ? { path: w.path, branch: w.branch } : null,
  };
}
