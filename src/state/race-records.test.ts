import { describe, expect, it } from 'vitest';
import {
  endResolving,
  markRequeued,
  reserveLanding,
  startResolving,
  updateResolving,
} from './race-records.js';
import { RunStateSchema } from './run-state.js';
import { markFailed, newRunState, storyRun } from './run-state-update.js';
import { startRunning } from './running-attempts.js';

const now = new Date('2026-01-02T03:04:05.000Z');
const fresh = () => newRunState({ name: 'demo', taskPath: '/x', now });

describe('race records', () => {
  it('a resolution run belongs to the iteration it resolves, its agent recorded, and ends', () => {
    let state = startResolving(fresh(), { storyId: 'US-001', worktree: '/w', iteration: 3, now });
    expect(state.iteration).toBe(0);
    expect(state.totals.iterations).toBe(0);
    expect(state.resolving).toMatchObject({ storyId: 'US-001', worktree: '/w', iteration: 3 });
    state = updateResolving(state, { agentToken: 't', agentPid: 42 });
    expect(RunStateSchema.parse(state).resolving).toMatchObject({ agentToken: 't', agentPid: 42 });
    expect(endResolving(state, now).resolving).toBeUndefined();
  });

  it('a requeue gives the attempt back and keeps why, in place of a failure; a failure clears it', () => {
    let state = startRunning(fresh(), {
      storyId: 'US-001',
      worker: 1,
      headBefore: 'a'.repeat(40),
      branch: 'b',
      worktree: '/w',
      now,
    });
    state = markFailed(state, 'US-001', { reason: 'old', kind: 'no-commit', now });
    state = markRequeued(state, 'US-001', { requeues: 1, note: { kind: 'conflict', reason: 'raced' }, now });
    const story = storyRun(state, 'US-001');
    expect(story).toMatchObject({
      attempts: 0,
      requeues: 1,
      lastRequeue: { reason: 'raced', kind: 'conflict' },
    });
    expect(story.lastFailure).toBeUndefined();
    const failed = storyRun(markFailed(state, 'US-001', { reason: 'own', kind: 'no-commit', now }), 'US-001');
    expect(failed.lastRequeue).toBeUndefined();
    expect(failed.requeues).toBe(1);
  });

  it('the reservation is set and cleared', () => {
    const reserved = reserveLanding(fresh(), { storyId: 'US-001', files: ['REGISTRY.md'] }, now);
    expect(RunStateSchema.parse(reserved).reserved).toEqual({ storyId: 'US-001', files: ['REGISTRY.md'] });
    expect(reserveLanding(reserved, null, now).reserved).toBeUndefined();
  });
});
