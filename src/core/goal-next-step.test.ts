import { describe, expect, it } from 'vitest';
import { ExitCode } from './errors.js';
import { type GoalRunView, nextGoalStep } from './goal-next-step.js';

function view(over: Partial<GoalRunView> = {}): GoalRunView {
  return {
    interrupted: false,
    openQuestions: 0,
    waitForAnswers: false,
    iterations: 0,
    limits: { maxIterations: 5, maxConsecutiveFailures: 3 },
    spend: { costUsd: 0, iterations: 0 },
    next: { mode: 'planning' },
    ...over,
  };
}

describe('nextGoalStep', () => {
  it('attempts the next iteration in the mode the progress asks for', () => {
    expect(nextGoalStep(view())).toEqual({ kind: 'attempt', role: 'planning' });
    expect(nextGoalStep(view({ next: { mode: 'reflecting', idleIterations: 2 } }))).toEqual({
      kind: 'attempt',
      role: 'reflecting',
    });
  });

  it('stops when the goal is complete, exit 0', () => {
    expect(nextGoalStep(view({ last: { kind: 'complete', iteration: 4 } }))).toEqual({
      kind: 'stop',
      reason: 'goal-complete',
      exitCode: ExitCode.Success,
      message: 'goal complete in iteration 4',
    });
  });

  it('stops after too many failures in a row, and goes on below the limit', () => {
    const failed = { kind: 'failed', reason: 'checks failed' } as const;
    expect(nextGoalStep(view({ last: { ...failed, consecutive: 3 } }))).toEqual({
      kind: 'stop',
      reason: 'failures',
      exitCode: ExitCode.WorkLeft,
      message: 'stopped with work left: 3 iterations in a row failed (last: checks failed)',
    });
    expect(nextGoalStep(view({ last: { ...failed, consecutive: 2 } }))).toMatchObject({ kind: 'attempt' });
  });

  it('a person needed: stops without --wait, waits for the answer with it', () => {
    const last = { kind: 'needs-human', iteration: 2 } as const;
    expect(nextGoalStep(view({ last, openQuestions: 1 }))).toMatchObject({
      kind: 'stop',
      reason: 'needs-human',
      message: 'stopped: iteration 2 needs a human',
    });
    expect(nextGoalStep(view({ last, openQuestions: 1, waitForAnswers: true }))).toEqual({
      kind: 'wait',
      for: 'answer',
    });
  });

  it('interrupted: before the next iteration, or with the iteration rolled back', () => {
    expect(nextGoalStep(view({ interrupted: true }))).toMatchObject({
      reason: 'interrupted',
      message: 'stopped',
    });
    expect(nextGoalStep(view({ last: { kind: 'aborted' } }))).toMatchObject({
      reason: 'interrupted',
      exitCode: ExitCode.Interrupted,
      message: 'stopped; the interrupted iteration was rolled back',
    });
  });

  it('--max-iterations and --max-cost stop with exit 3', () => {
    expect(nextGoalStep(view({ iterations: 5 }))).toMatchObject({
      reason: 'max-iterations',
      exitCode: ExitCode.LimitReached,
      message: 'reached the limit of 5 iterations without completing the goal',
    });
    const limits = { maxIterations: 9, maxConsecutiveFailures: 3, maxCostUsd: 1 };
    expect(nextGoalStep(view({ limits, spend: { costUsd: 0.8, iterations: 2 } }))).toMatchObject({
      reason: 'max-cost',
      exitCode: ExitCode.LimitReached,
    });
  });

  it('an accepted result goes on to the next iteration', () => {
    expect(nextGoalStep(view({ last: { kind: 'accepted' } }))).toMatchObject({ kind: 'attempt' });
  });
});
