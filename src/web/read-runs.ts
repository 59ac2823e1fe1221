/**
 * The runs of a project and their files, read as they are on disk now: every
 * PRD under `.ralph/prds/`, every goal run, and every other run folder whose
 * state names a task file (a `prd.json` outside `.ralph/prds/`, a spec
 * directory). Nothing here writes.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { liveTaskPath, readForNextRun } from '../app/task-context.js';
import { formatIssue } from '../core/validation-issue.js';
import { isGoalRun, listGoalRuns } from '../goal/goal-runs.js';
import { summarizeGoalRun } from '../goal/goal-summary.js';
import { goalRunFiles, readGoalProgress } from '../goal/progress-file.js';
import { isValidPrdName, runFiles, runsDir } from '../state/layout.js';
import { inspectLock, type LockStatus } from '../state/lock.js';
import { listPrdNames, type ResolvedTarget, resolveTarget } from '../state/resolve-target.js';
import { controlFile, readControlRequest } from '../state/run-control.js';
import { readRunState } from '../state/run-state.js';
import { questionsOf } from './answers.js';
import type { RunActivity } from './run-activity.js';
import { goalRunView, prdRunView } from './run-views.js';
import type { RunView } from './view.js';

export type RunRef =
  | { kind: 'prd'; name: string; runDir: string; target: ResolvedTarget }
  | { kind: 'goal'; name: string; runDir: string };

/** Every run of the project: PRDs first (by name), then goal runs and runs of task files elsewhere. */
export async function discoverRuns(root: string): Promise<RunRef[]> {
  const refs: RunRef[] = [];
  const names = new Set<string>();
  for (const name of await listPrdNames(root)) {
    const target = await resolveTarget(root, name).catch(() => null);
    if (target === null) continue;
    refs.push({ kind: 'prd', name, runDir: target.runDir, target });
    names.add(name);
  }
  for (const name of await listGoalRuns(root)) {
    if (names.has(name)) continue;
    refs.push({ kind: 'goal', name, runDir: goalRunFiles(path.join(runsDir(root), name)).dir });
    names.add(name);
  }
  const entries = await readdir(runsDir(root), { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || names.has(entry.name) || !isValidPrdName(entry.name)) continue;
    if (isGoalRun(root, entry.name)) continue;
    const target = await targetOfRunFolder(root, entry.name);
    if (target !== null) refs.push({ kind: 'prd', name: entry.name, runDir: target.runDir, target });
  }
  return refs;
}

/** A run folder of a task file outside `.ralph/prds/`: its state says which file. */
async function targetOfRunFolder(root: string, name: string): Promise<ResolvedTarget | null> {
  const dir = path.join(runsDir(root), name);
  const state = await readRunState(runFiles(dir).state).catch(() => null);
  if (state === null) return null;
  const target = await resolveTarget(root, state.taskPath, { cwd: root }).catch(() => null);
  return target !== null && target.name === name ? target : null;
}

/** The files whose change means the run's view changed (besides `events.jsonl`, followed apart). */
export function filesOf(root: string, ref: RunRef): string[] {
  const files = runFiles(ref.runDir);
  const common = [files.lock, controlFile(ref.runDir), path.join(ref.runDir, 'answers.jsonl')];
  if (ref.kind === 'goal') return [goalRunFiles(ref.runDir).progress, ...common];
  return [liveTaskPath(root, ref.target), files.state, ...common];
}

export async function readRunView(root: string, ref: RunRef, activity: RunActivity): Promise<RunView> {
  const lock = await inspectLock(runFiles(ref.runDir).lock).catch((): LockStatus => ({ kind: 'free' }));
  const shared = {
    name: ref.name,
    lock,
    activity,
    questions: await questionsOf(ref.runDir, activity.questions),
    control: await readControlRequest(ref.runDir).catch(() => null),
  };
  if (ref.kind === 'goal') {
    try {
      const progress = await readGoalProgress(goalRunFiles(ref.runDir).progress);
      if (progress === null) return goalRunView({ ...shared, summary: null, error: 'no PROGRESS.yaml' });
      return goalRunView({
        ...shared,
        summary: summarizeGoalRun(progress, lock.kind === 'held'),
        error: null,
      });
    } catch (error) {
      return goalRunView({ ...shared, summary: null, error: messageOf(error) });
    }
  }
  const stateRead = await readRunState(runFiles(ref.runDir).state).then(
    (state) => ({ state, error: null }),
    (error: unknown) => ({ state: null, error: messageOf(error) }),
  );
  const read = await readForNextRun(root, ref.target).catch((error: unknown) => ({
    ok: false as const,
    issues: [{ file: ref.target.taskPath, message: messageOf(error), severity: 'error' as const }],
  }));
  if (!read.ok) {
    const first = read.issues[0];
    const error = `the task file does not read: ${first ? formatIssue(first) : ref.target.taskPath}`;
    return prdRunView({ ...shared, prd: null, error, state: stateRead.state });
  }
  return prdRunView({ ...shared, prd: read.prd, error: stateRead.error, state: stateRead.state });
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
