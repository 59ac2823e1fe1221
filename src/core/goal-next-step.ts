import { wouldExceedCost } from './budget.js';
import { ExitCode } from './errors.js';
import type { ModeSelection } from './goal-mode.js';
import { type NextStep, stop } from './next-step.js';
import { stopMessages } from './stop-messages.js';
import type { GoalStopReason } from './stop-reasons.js';

/** How the goal loop's last iteration ended, as far as what comes next goes. */
export type GoalIterationEnd =
  /** A verified result that neither completed the goal nor asked for a person. */
  | { kind: 'accepted' }
  | { kind: 'failed'; consecutive: number; reason: string }
  | { kind: 'complete'; iteration: number }
  /** The agent asked for a person; the question is already with the answer desk. */
  | { kind: 'needs-human'; iteration: number }
  /** Stopped by the user: rolled back, not counted. */
  | { kind: 'aborted' };

/** A goal run's view before its next iteration. */
export interface GoalRunView {
  interrupted: boolean;
  /** Questions the run asked that wait for an answer. */
  openQuestions: number;
  waitForAnswers: boolean;
  /** Counted iterations this session. */
  iterations: number;
  limits: { maxIterations: number; maxCostUsd?: number; maxConsecutiveFailures: number };
  /** What the run's iterations cost so far, and how many there were. */
  spend: { costUsd: number; iterations: number };
  /** The next iteration's mode (`selectGoalMode`). */
  next: ModeSelection;
  last?: GoalIterationEnd;
}

/**
 * What a goal run does next: the last iteration's end first (interrupted,
 * too many failures in a row, the goal complete, a person needed without
 * --wait), then the run's own rules (interrupted, --wait for an answer,
 * --max-iterations, --max-cost), else the next iteration in its mode.
 */
export function nextGoalStep(view: GoalRunView): NextStep<GoalStopReason> {
  const { last, limits } = view;
  if (last?.kind === 'aborted')
    return stop('interrupted', ExitCode.Interrupted, stopMessages.interruptedIteration);
  if (last?.kind === 'failed' && last.consecutive >= limits.maxConsecutiveFailures)
    return stop('failures', ExitCode.WorkLeft, stopMessages.failures(last.consecutive, last.reason));
  if (last?.kind === 'complete')
    return stop('goal-complete', ExitCode.Success, stopMessages.goalComplete(last.iteration));
  if (last?.kind === 'needs-human' && !view.waitForAnswers)
    return stop('needs-human', ExitCode.WorkLeft, stopMessages.needsHuman(last.iteration));
  if (view.interrupted) return stop('interrupted', ExitCode.Interrupted, stopMessages.interrupted);
  // `--wait`: the run sits until a person answers what it asked, then goes on with the answer.
  if (view.waitForAnswers && view.openQuestions > 0) return { kind: 'wait', for: 'answer' };
  if (view.iterations >= limits.maxIterations)
    return stop(
      'max-iterations',
      ExitCode.LimitReached,
      stopMessages.goalMaxIterations(limits.maxIterations),
    );
  if (wouldExceedCost(view.spend, limits.maxCostUsd))
    return stop('max-cost', ExitCode.LimitReached, stopMessages.maxCost(limits.maxCostUsd));
  return { kind: 'attempt', role: view.next.mode };
}
