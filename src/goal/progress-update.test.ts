import { describe, expect, it } from 'vitest';
import { applyGoalResult } from '../core/goal-apply.js';
import type { GoalResult } from '../core/goal-types.js';
import { goalSpecFromText } from './goal-spec.js';
import type { GoalProgress } from './progress-schema.js';
import {
  beginSession,
  markStopped,
  newGoalProgress,
  recordAccepted,
  recordFailure,
  startIteration,
  undoIteration,
} from './progress-update.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const spec = goalSpecFromText('Ship it', { name: 'ship' });

function accept(progress: GoalProgress, iteration: number, result: GoalResult): GoalProgress {
  const applied = applyGoalResult({
    steps: progress.dynamicSteps,
    idleStreak: progress.idleStreak,
    iteration,
    minIterations: progress.ralph.minIterations,
    result,
    now: NOW,
  });
  return recordAccepted(progress, { iteration, mode: 'planning', now: NOW, result, applied });
}

const base = (): GoalProgress => beginSession(newGoalProgress(spec, NOW), spec, { maxIterations: 10 });

describe('goal progress updates', () => {
  it('counts a failure, feeds it back, and clears both on the next accepted result', () => {
    let p = startIteration(base(), {
      iteration: 1,
      headBefore: 'abcdef1',
      now: NOW,
      mode: 'planning',
      cwd: '/repo',
    });
    expect(p.current?.iteration).toBe(1);
    p = recordFailure(p, { iteration: 1, mode: 'planning', now: NOW, reason: 'no result' });
    expect(p).toMatchObject({ current: null, consecutiveFailures: 1 });
    expect(p.feedback?.message).toBe('Iteration 1 failed and was rolled back: no result');
    p = accept(p, 2, { status: 'continue', summary: 'ok', completedStepIds: [], pendingSteps: [] });
    expect(p).toMatchObject({ consecutiveFailures: 0, feedback: null, status: 'in-progress' });
    expect(p.iterations.map((i) => i.outcome)).toEqual(['failed', 'continue']);
  });

  it('warns the next iteration about step ids it does not know', () => {
    const p = accept(base(), 1, {
      status: 'continue',
      summary: 'ok',
      completedStepIds: ['step-4'],
      pendingSteps: [],
    });
    expect(p.feedback).toMatchObject({ kind: 'warning', iteration: 1 });
    expect(p.feedback?.message).toContain('step-4');
  });

  it('records needs-human, keeps it over a new session, and drops it once an iteration is accepted', () => {
    let p = accept(base(), 1, {
      status: 'needs-human',
      summary: 'blocked',
      completedStepIds: [],
      pendingSteps: [],
      humanNeeded: { reason: 'No key', details: 'Add KEY' },
    });
    expect(p.status).toBe('needs-human');
    p = markStopped(p, { reason: 'needs-human', exitCode: 1, now: NOW });
    expect(p.status).toBe('needs-human');
    p = beginSession(p, spec, { maxIterations: 5 });
    expect(p).toMatchObject({
      status: 'in-progress',
      stop: null,
      humanNeeded: { reason: 'No key', iteration: 1 },
    });
    expect(p.stats.maxIterations).toBe(p.stats.currentIteration + 5);
    p = accept(p, 2, { status: 'continue', summary: 'fixed', completedStepIds: [], pendingSteps: [] });
    expect(p.humanNeeded).toBeNull();
  });

  it('records the exit of a completed goal, and marks an unfinished one stopped', () => {
    const done = accept(base(), 3, {
      status: 'goal-complete',
      summary: 's',
      completedStepIds: [],
      pendingSteps: [],
      goalCompleteSummary: 'All shipped',
    });
    expect(done).toMatchObject({
      status: 'goal-complete',
      ralphExit: { iteration: 3, finalSummary: 'All shipped', detectedAt: NOW.toISOString() },
    });
    expect(markStopped(base(), { reason: 'max-iterations', exitCode: 3, now: NOW }).status).toBe('stopped');
  });

  it('undoes an iteration that does not count', () => {
    const p = undoIteration(
      startIteration(base(), {
        iteration: 1,
        headBefore: 'abcdef1',
        now: NOW,
        mode: 'planning',
        cwd: '/repo',
      }),
    );
    expect(p.current).toBeNull();
    expect(p.stats.currentIteration).toBe(0);
  });
});
