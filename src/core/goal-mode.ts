import type { GoalStep } from './goal-types.js';

export interface ModeInput {
  steps: readonly GoalStep[];
  /** Iterations whose result was accepted so far (failed ones do not count). */
  acceptedIterations: number;
  /** Accepted iterations in a row that neither completed nor added a step. */
  idleStreak: number;
  idleThreshold: number;
}

export type ModeSelection =
  | { mode: 'planning' }
  | { mode: 'executing'; step: GoalStep }
  | { mode: 'reflecting'; idleIterations: number };

/**
 * The mode of the next iteration (seed 004):
 *  1. nothing accepted yet (the first iteration, or every one so far failed) → planning;
 *  2. `idleThreshold` accepted iterations in a row without progress → reflecting:
 *     judge the work, then complete the goal or add steps;
 *  3. a pending step → executing the first one, in list order;
 *  4. no pending step → planning the next steps (or reporting the goal complete).
 * "Progress" is a step completed or a step added, so an agent stuck on one
 * step reflects too, not only one that has run out of steps.
 */
export function selectGoalMode(input: ModeInput): ModeSelection {
  if (input.acceptedIterations === 0) return { mode: 'planning' };
  if (input.idleStreak >= input.idleThreshold) {
    return { mode: 'reflecting', idleIterations: input.idleStreak };
  }
  const step = input.steps.find((s) => s.status === 'pending');
  return step ? { mode: 'executing', step } : { mode: 'planning' };
}
