import { describe, expect, it } from 'vitest';
import { selectGoalMode } from './goal-mode.js';
import type { GoalStep } from './goal-types.js';

const step = (id: string, status: GoalStep['status']): GoalStep => ({
  id,
  prompt: `do ${id}`,
  status,
  addedAt: '2026-01-01T00:00:00.000Z',
  addedInIteration: 1,
});

const base = { steps: [] as GoalStep[], acceptedIterations: 0, idleStreak: 0, idleThreshold: 3 };

describe('selectGoalMode', () => {
  it('plans first, even when steps already exist (a user-seeded list)', () => {
    expect(selectGoalMode(base)).toEqual({ mode: 'planning' });
    expect(selectGoalMode({ ...base, steps: [step('step-0', 'pending')] })).toEqual({ mode: 'planning' });
  });

  it('executes the first pending step in list order', () => {
    const steps = [step('step-0', 'completed'), step('step-1', 'pending'), step('step-2', 'pending')];
    const selection = selectGoalMode({ ...base, steps, acceptedIterations: 2 });
    expect(selection.mode).toBe('executing');
    expect(selection.mode === 'executing' && selection.step.id).toBe('step-1');
  });

  it('plans again when no step is pending', () => {
    const steps = [step('step-0', 'completed')];
    expect(selectGoalMode({ ...base, steps, acceptedIterations: 2 })).toEqual({ mode: 'planning' });
  });

  it('reflects once the idle streak reaches the threshold, pending steps or not', () => {
    const steps = [step('step-0', 'pending')];
    expect(selectGoalMode({ ...base, steps, acceptedIterations: 5, idleStreak: 2 }).mode).toBe('executing');
    expect(selectGoalMode({ ...base, steps, acceptedIterations: 5, idleStreak: 3 })).toEqual({
      mode: 'reflecting',
      idleIterations: 3,
    });
    expect(selectGoalMode({ ...base, acceptedIterations: 5, idleStreak: 4, idleThreshold: 1 })).toEqual({
      mode: 'reflecting',
      idleIterations: 4,
    });
  });
});
