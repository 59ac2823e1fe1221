import { isGoalRun, listGoalRuns } from '../goal/goal-runs.js';
import { runDir } from '../state/layout.js';
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
  /** The project root, when the caller has found it already. */
  knownRoot?: string,
): Promise<GoalRunTarget | null> {
  const root = knownRoot ?? (await findProjectRoot(cwd));
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
