import { existsSync } from 'node:fs';
import path from 'node:path';
import { stopLeftovers } from '../attempt/stop-leftovers.js';
import { ExitCode } from '../core/errors.js';
import type { HumanNeeded } from '../core/goal-types.js';
import type { OpenQuestionNote } from '../core/questions.js';
import type { EventOf, GoalStopReason, RunEventSink } from '../events/run-event.js';
import type { GoalContext, GoalOutcome } from './goal-context.js';
import type { GoalProgress } from './progress-schema.js';
import { undoIteration } from './progress-update.js';
import { rollBackIteration } from './tree.js';

/**
 * A run killed mid-iteration left `current` set. Its agent may still be
 * running, found by its pid or its token: stop it and what it started, roll the iteration back, and
 * let it run again as if it never started.
 */
export async function recoverInterruptedIteration(ctx: GoalContext): Promise<void> {
  const current = ctx.store.get().current;
  if (current === null) return;
  await stopLeftovers({ agentPid: current.agentPid, token: current.agentToken });
  // Rolled back where it ran: resumed with other workspace options, the run must not reset this checkout.
  const cwd = current.cwd !== undefined && existsSync(current.cwd) ? current.cwd : ctx.cwd;
  await rollBackIteration({ ...ctx, cwd }, current.iteration, current.headBefore);
  await ctx.store.update(undoIteration);
  ctx.emit({
    type: 'recovered',
    action: 'rolled-back',
    iteration: current.iteration,
    to: current.headBefore,
  });
}

export function alreadyComplete(progress: GoalProgress, emit: RunEventSink, file: string): GoalOutcome {
  emit(
    goalFinished(progress, {
      exitCode: ExitCode.Success,
      reason: 'goal-complete',
      message: `the goal was already completed in iteration ${progress.ralphExit.iteration ?? '?'}; move ${path.dirname(file)} away to run it again`,
      iterations: 0,
      progressFile: file,
      ...(progress.ralphExit.finalSummary ? { finalSummary: progress.ralphExit.finalSummary } : {}),
    }),
  );
  return { exitCode: ExitCode.Success, reason: 'goal-complete' };
}

/** How a goal run ended, in the words every run ends with: its steps are what it passed. */
export function goalFinished(
  progress: GoalProgress,
  end: {
    exitCode: number;
    reason: GoalStopReason;
    message: string;
    /** Iterations run in this session. */
    iterations: number;
    progressFile: string;
    finalSummary?: string;
    humanNeeded?: HumanNeeded;
    questions?: readonly OpenQuestionNote[];
  },
): EventOf<'run-finished'> {
  const steps = stepCounts(progress);
  const { finalSummary, humanNeeded, progressFile, questions, ...common } = end;
  return {
    type: 'run-finished',
    ...common,
    ...(questions && questions.length > 0 ? { questions: [...questions] } : {}),
    passed: steps.completed,
    total: steps.total,
    parked: [],
    costUsd: progress.stats.costUsd,
    goal: {
      progressFile,
      ...(finalSummary !== undefined ? { finalSummary } : {}),
      ...(humanNeeded !== undefined ? { humanNeeded } : {}),
    },
  };
}

export const stepCounts = (p: GoalProgress) => ({
  total: p.dynamicSteps.length,
  completed: p.dynamicSteps.filter((s) => s.status === 'completed').length,
});
