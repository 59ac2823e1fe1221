/** What the goal loop does with an iteration's outcome: record it, tell the listeners, and run the hooks. */
import { applyGoalResult, type GoalDecision } from '../core/goal-apply.js';
import type { HookRunner } from '../run/hooks.js';
import type { GoalContext } from './goal-context.js';
import { stepCounts } from './goal-session.js';
import type { IterationOutcome, IterationRun } from './iteration.js';
import { type IterationInfo, recordAccepted, recordFailure } from './progress-update.js';
import { rollBackIteration } from './tree.js';

export type { IterationInfo } from './progress-update.js';

/** Puts the tree back where the iteration started (design principle 3). */
export async function rollBack(ctx: GoalContext, run: IterationRun): Promise<void> {
  const rescueRef = await rollBackIteration(ctx, run.iteration, run.headBefore);
  ctx.emit({
    type: 'rolled-back',
    iteration: run.iteration,
    to: run.headBefore,
    ...(rescueRef ? { rescueRef } : {}),
  });
}

/** Rolls a failed iteration back and records why; returns the failures in a row. */
export async function recordFailedIteration(
  ctx: GoalContext,
  run: IterationRun,
  info: IterationInfo,
  outcome: Extract<IterationOutcome, { kind: 'failed' }>,
): Promise<number> {
  await rollBack(ctx, run);
  await ctx.store.update((p) =>
    recordFailure(p, {
      ...info,
      reason: outcome.reason,
      ...(outcome.outputTail ? { outputTail: outcome.outputTail } : {}),
    }),
  );
  const consecutive = ctx.store.get().consecutiveFailures;
  // A goal iteration's attempts are its failures in a row: the run stops at the limit.
  ctx.emit({
    type: 'attempt-failed',
    iteration: run.iteration,
    kind: outcome.failure,
    reason: outcome.reason,
    attempt: consecutive,
    maxAttempts: ctx.limits.maxConsecutiveFailures,
    willRetry: consecutive < ctx.limits.maxConsecutiveFailures,
  });
  return consecutive;
}

/** Applies a verified result to the steps and records it; the decision says whether the loop goes on. */
export async function recordResult(
  ctx: GoalContext,
  run: IterationRun,
  info: IterationInfo,
  outcome: Extract<IterationOutcome, { kind: 'result' }>,
): Promise<GoalDecision> {
  const current = ctx.store.get();
  const applied = applyGoalResult({
    steps: current.dynamicSteps,
    idleStreak: current.idleStreak,
    iteration: run.iteration,
    minIterations: current.ralph.minIterations,
    result: outcome.result,
    now: info.now,
  });
  await ctx.store.update((p) => recordAccepted(p, { ...info, result: outcome.result, applied }));
  ctx.emit({
    type: 'goal-result',
    iteration: run.iteration,
    status: outcome.result.status,
    summary: outcome.result.summary,
    completedStepIds: applied.completed,
    addedSteps: applied.added.map((s) => ({ id: s.id, prompt: s.prompt })),
    commits: outcome.commits.map((c) => ({ sha: c.sha, subject: c.subject })),
    steps: stepCounts(ctx.store.get()),
  });
  if (applied.ignored.length > 0) {
    ctx.emit({
      type: 'goal-warning',
      iteration: run.iteration,
      message: `ignored step ids not on the list: ${applied.ignored.join(', ')}`,
    });
  }
  if (applied.decision.kind === 'refused') {
    ctx.emit({ type: 'goal-complete-refused', iteration: run.iteration, reason: applied.decision.reason });
  }
  return applied.decision;
}

/** The iteration's hooks; sequential ones finish (and their changes are committed) before this returns. */
export async function runHooks(hooks: HookRunner, ctx: GoalContext, run: IterationRun, info: IterationInfo) {
  if (!hooks.active) return;
  await hooks.afterIteration({
    iteration: run.iteration,
    runId: ctx.spec.name,
    transcript: run.transcript,
    ...(info.stepId !== undefined ? { stepId: info.stepId } : {}),
    ...(ctx.spec.goalFile !== undefined ? { prd: ctx.spec.goalFile } : {}),
  });
}
