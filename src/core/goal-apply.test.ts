import { describe, expect, it } from 'vitest';
import { type ApplyInput, applyGoalResult } from './goal-apply.js';
import type { GoalResult, GoalStep } from './goal-types.js';

const NOW = new Date('2026-02-03T04:05:06.000Z');

const step = (id: string, status: GoalStep['status'], prompt = `do ${id}`): GoalStep => ({
  id,
  prompt,
  status,
  addedAt: '2026-01-01T00:00:00.000Z',
  addedInIteration: 1,
});

const result = (over: Partial<GoalResult>): GoalResult => ({
  status: 'continue',
  summary: 'did things',
  completedStepIds: [],
  pendingSteps: [],
  ...over,
});

const input = (over: Partial<ApplyInput>): ApplyInput => ({
  steps: [],
  idleStreak: 0,
  iteration: 4,
  minIterations: 0,
  result: result({}),
  now: NOW,
  ...over,
});

describe('applyGoalResult', () => {
  it('adds new steps with fresh ids after the highest one, stamped with the iteration', () => {
    const out = applyGoalResult(
      input({
        steps: [step('step-0', 'completed'), step('step-7', 'pending')],
        result: result({
          pendingSteps: [
            { id: null, prompt: 'Write docs' },
            { id: null, prompt: 'Add tests' },
          ],
        }),
      }),
    );
    expect(out.added.map((s) => [s.id, s.prompt, s.addedInIteration, s.addedAt])).toEqual([
      ['step-8', 'Write docs', 4, NOW.toISOString()],
      ['step-9', 'Add tests', 4, NOW.toISOString()],
    ]);
    expect(out.steps.map((s) => s.id)).toEqual(['step-0', 'step-7', 'step-8', 'step-9']);
    expect(out.idleStreak).toBe(0);
  });

  it('marks completed steps, ignores unknown ids and keeps restated steps as they were', () => {
    const steps = [step('step-0', 'pending'), step('step-1', 'pending', 'original text')];
    const out = applyGoalResult(
      input({
        steps,
        idleStreak: 2,
        result: result({
          completedStepIds: ['step-0', 'step-9'],
          pendingSteps: [
            { id: 'step-1', prompt: 'rewritten text' },
            { id: 'bogus', prompt: 'x' },
          ],
        }),
      }),
    );
    expect(out.completed).toEqual(['step-0']);
    expect(out.steps[0]).toMatchObject({ status: 'completed', completedInIteration: 4 });
    expect(out.steps[1]).toMatchObject({ status: 'pending', prompt: 'original text' });
    expect(out.ignored).toEqual(['step-9', 'bogus']);
    expect(out.idleStreak).toBe(0);
    // The input is not changed.
    expect(steps[0]?.status).toBe('pending');
  });

  it('does not add a step twice when the agent re-lists a pending one as new', () => {
    const out = applyGoalResult(
      input({
        steps: [step('step-0', 'pending', 'Add  Logout')],
        result: result({
          pendingSteps: [
            { id: null, prompt: 'add logout' },
            { id: null, prompt: 'Add refresh' },
            { id: null, prompt: 'Add refresh ' },
          ],
        }),
      }),
    );
    expect(out.added.map((s) => s.prompt)).toEqual(['Add refresh']);
  });

  it('counts an iteration without progress towards the idle streak', () => {
    const out = applyGoalResult(input({ steps: [step('step-0', 'completed')], idleStreak: 1 }));
    expect(out.idleStreak).toBe(2);
    expect(out.decision).toEqual({ kind: 'continue' });
  });

  it('accepts goal-complete from min-iterations on, and refuses it before', () => {
    const complete = result({ status: 'goal-complete', goalCompleteSummary: 'All done' });
    expect(applyGoalResult(input({ iteration: 3, minIterations: 3, result: complete })).decision).toEqual({
      kind: 'complete',
      summary: 'All done',
    });
    const early = applyGoalResult(
      input({ iteration: 2, minIterations: 3, result: { ...complete, completedStepIds: ['step-0'] } }),
    );
    expect(early.decision.kind).toBe('refused');
    expect(early.decision.kind === 'refused' && early.decision.reason).toMatch(/at least 3 iterations/);
    expect(early.decision.kind === 'refused' && early.decision.reason).toMatch(/iteration 2/);
  });

  it('still applies the step changes of a refused or needs-human result', () => {
    const steps = [step('step-0', 'pending')];
    const refused = applyGoalResult(
      input({
        steps,
        iteration: 1,
        minIterations: 5,
        result: result({ status: 'goal-complete', goalCompleteSummary: 'x', completedStepIds: ['step-0'] }),
      }),
    );
    expect(refused.completed).toEqual(['step-0']);
    const human = applyGoalResult(
      input({
        steps,
        result: result({
          status: 'needs-human',
          completedStepIds: ['step-0'],
          humanNeeded: { reason: 'No credentials', details: 'Set DATABASE_URL' },
        }),
      }),
    );
    expect(human.completed).toEqual(['step-0']);
    expect(human.decision).toEqual({
      kind: 'needs-human',
      humanNeeded: { reason: 'No credentials', details: 'Set DATABASE_URL' },
    });
  });
});
