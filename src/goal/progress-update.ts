/** Pure changes to a goal run's progress; the engine saves the results. */
import type { ApplyOutcome } from '../core/goal-apply.js';
import type { GoalMode, GoalResult } from '../core/goal-types.js';
import type { HookTaskRecord } from '../run/hooks-types.js';
import type { GoalSpec } from './goal-spec.js';
import type { GoalProgress, GoalStatus } from './progress-schema.js';

export function newGoalProgress(spec: GoalSpec, now: Date, goalFile?: string): GoalProgress {
  const at = now.toISOString();
  return {
    version: 1,
    name: spec.name,
    status: 'in-progress',
    mode: 'ralph',
    goal: spec.goal,
    successCriteria: spec.successCriteria,
    ...(goalFile !== undefined ? { goalFile } : {}),
    ralph: { ...spec.settings },
    dynamicSteps: [],
    hookTasks: [],
    iterations: [],
    feedback: null,
    idleStreak: 0,
    consecutiveFailures: 0,
    current: null,
    humanNeeded: null,
    ralphExit: { detectedAt: null, iteration: null, finalSummary: null },
    stop: null,
    stats: {
      startedAt: at,
      updatedAt: at,
      currentIteration: 0,
      maxIterations: 0,
      costUsd: 0,
      inputTokens: 0,
      outputTokens: 0,
    },
  };
}

/**
 * A new session over saved progress: the goal file and options as they are
 * now (the user may have edited them), steps and history kept. A
 * `needs-human` stop is kept in `humanNeeded` so the next prompt asks
 * whether it was solved.
 */
export function beginSession(
  progress: GoalProgress,
  spec: GoalSpec,
  options: { maxIterations: number; goalFile?: string },
): GoalProgress {
  const { goalFile: _old, ...rest } = progress;
  return {
    ...rest,
    ...(options.goalFile !== undefined ? { goalFile: options.goalFile } : {}),
    status: 'in-progress',
    goal: spec.goal,
    successCriteria: spec.successCriteria,
    ralph: { ...spec.settings },
    // A new session starts with a clean slate of failures, as parked stories do in the PRD loop.
    consecutiveFailures: 0,
    stop: null,
    stats: { ...progress.stats, maxIterations: progress.stats.currentIteration + options.maxIterations },
  };
}

export function startIteration(
  progress: GoalProgress,
  current: {
    iteration: number;
    headBefore: string;
    now: Date;
    agentToken?: string;
    mode: GoalMode;
    stepId?: string;
    cwd: string;
  },
): GoalProgress {
  return {
    ...progress,
    current: {
      iteration: current.iteration,
      headBefore: current.headBefore,
      startedAt: current.now.toISOString(),
      ...(current.agentToken !== undefined ? { agentToken: current.agentToken } : {}),
      mode: current.mode,
      ...(current.stepId !== undefined ? { stepId: current.stepId } : {}),
      cwd: current.cwd,
    },
    stats: { ...progress.stats, currentIteration: current.iteration },
  };
}

export const setAgentPid = (progress: GoalProgress, pid: number): GoalProgress =>
  progress.current ? { ...progress, current: { ...progress.current, agentPid: pid } } : progress;

/** An iteration that does not count (rate limit, interrupt, crash): it never happened. */
export function undoIteration(progress: GoalProgress): GoalProgress {
  const iteration = progress.current?.iteration ?? progress.stats.currentIteration;
  return {
    ...progress,
    current: null,
    stats: { ...progress.stats, currentIteration: Math.max(0, iteration - 1) },
  };
}

export function addUsage(
  progress: GoalProgress,
  usage: { costUsd: number; inputTokens: number; outputTokens: number },
): GoalProgress {
  return {
    ...progress,
    stats: {
      ...progress.stats,
      costUsd: progress.stats.costUsd + usage.costUsd,
      inputTokens: progress.stats.inputTokens + usage.inputTokens,
      outputTokens: progress.stats.outputTokens + usage.outputTokens,
    },
  };
}

export interface IterationInfo {
  iteration: number;
  mode: GoalMode;
  stepId?: string;
  now: Date;
  /** The agent's time and spend in the iteration. */
  usage?: IterationUsage;
}

export interface IterationUsage {
  durationMs: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
}

export function recordFailure(
  progress: GoalProgress,
  info: IterationInfo & { reason: string; outputTail?: string },
): GoalProgress {
  return {
    ...progress,
    current: null,
    consecutiveFailures: progress.consecutiveFailures + 1,
    feedback: {
      iteration: info.iteration,
      kind: 'failed',
      message: `Iteration ${info.iteration} failed and was rolled back: ${info.reason}`,
      ...(info.outputTail ? { outputTail: info.outputTail } : {}),
    },
    iterations: [...progress.iterations, historyEntry(info, 'failed', info.reason)],
  };
}

export function recordAccepted(
  progress: GoalProgress,
  info: IterationInfo & { result: GoalResult; applied: ApplyOutcome },
): GoalProgress {
  const { result, applied } = info;
  const { decision } = applied;
  const at = info.now.toISOString();
  const outcome = decision.kind === 'refused' ? 'refused' : result.status;
  const warning =
    applied.ignored.length > 0
      ? `Iteration ${info.iteration} named step ids that are not on the list: ${applied.ignored.join(', ')}. They were ignored: complete steps by their listed ids, and add new steps with "id": null.`
      : undefined;
  const feedback =
    decision.kind === 'refused'
      ? { iteration: info.iteration, kind: 'refused' as const, message: decision.reason }
      : warning !== undefined
        ? { iteration: info.iteration, kind: 'warning' as const, message: warning }
        : null;
  const status: GoalStatus =
    decision.kind === 'complete'
      ? 'goal-complete'
      : decision.kind === 'needs-human'
        ? 'needs-human'
        : 'in-progress';
  return {
    ...progress,
    status,
    current: null,
    dynamicSteps: applied.steps,
    idleStreak: applied.idleStreak,
    consecutiveFailures: 0,
    feedback,
    humanNeeded:
      decision.kind === 'needs-human' ? { ...decision.humanNeeded, iteration: info.iteration, at } : null,
    ralphExit:
      decision.kind === 'complete'
        ? { detectedAt: at, iteration: info.iteration, finalSummary: decision.summary }
        : progress.ralphExit,
    iterations: [...progress.iterations, historyEntry(info, outcome, result.summary)],
  };
}

export function markStopped(
  progress: GoalProgress,
  stop: { reason: string; exitCode: number; now: Date },
): GoalProgress {
  const status = progress.status === 'in-progress' ? 'stopped' : progress.status;
  return {
    ...progress,
    status,
    stop: { reason: stop.reason, exitCode: stop.exitCode, at: stop.now.toISOString() },
  };
}

/** A hook task's latest record replaces its earlier one. */
export function upsertHookTask(progress: GoalProgress, record: HookTaskRecord): GoalProgress {
  const same = (r: HookTaskRecord) =>
    r.iteration === record.iteration && r.hookId === record.hookId && r.spawnedAt === record.spawnedAt;
  const index = progress.hookTasks.findIndex(same);
  const hookTasks =
    index === -1
      ? [...progress.hookTasks, record]
      : progress.hookTasks.map((r, i) => (i === index ? record : r));
  return { ...progress, hookTasks };
}

function historyEntry(
  info: IterationInfo,
  outcome: GoalProgress['iterations'][number]['outcome'],
  summary: string,
) {
  return {
    iteration: info.iteration,
    mode: info.mode,
    ...(info.stepId !== undefined ? { stepId: info.stepId } : {}),
    outcome,
    summary,
    at: info.now.toISOString(),
    ...(info.usage ?? {}),
  };
}
