import { describe, expect, it } from 'vitest';
import { RunStateSchema } from './run-state.js';
import {
  addUsage,
  markFailed,
  markPassed,
  markStopped,
  newRunState,
  startAttempt,
  storyRun,
  unparkStory,
} from './run-state-update.js';

const t = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const sha = (c: string) => c.repeat(40);
const base = () => newRunState({ name: 'main', taskPath: '/p/prd.md', now: t(0) });

describe('run state updates', () => {
  it('starts empty', () => {
    const state = base();
    expect(state).toMatchObject({ version: 1, iteration: 0, current: null, stories: {} });
    expect(state.totals).toEqual({ costUsd: 0, inputTokens: 0, outputTokens: 0, iterations: 0 });
    expect(storyRun(state, 'US-001').attempts).toBe(0);
  });

  it('records the in-flight attempt for crash recovery', () => {
    const state = startAttempt(base(), { storyId: 'US-001', headBefore: sha('a'), now: t(1) });
    expect(state.iteration).toBe(1);
    expect(state.totals.iterations).toBe(1);
    expect(state.current).toEqual({
      storyId: 'US-001',
      attempt: 1,
      iteration: 1,
      headBefore: sha('a'),
      startedAt: t(1).toISOString(),
    });
    expect(state.updatedAt).toBe(t(1).toISOString());
  });

  it('counts attempts per story and iterations overall through a fail, retry and pass', () => {
    let state = startAttempt(base(), { storyId: 'US-001', headBefore: sha('a'), now: t(1) });
    state = addUsage(
      state,
      'US-001',
      { costUsd: 0.5, inputTokens: 100, outputTokens: 10, durationMs: 1000 },
      t(2),
    );
    state = markFailed(state, 'US-001', { reason: 'checks failed', kind: 'checks', now: t(2) });
    expect(state.current).toBeNull();
    expect(state.stories['US-001']?.lastFailure).toEqual({
      reason: 'checks failed',
      kind: 'checks',
      at: t(2).toISOString(),
    });
    state = startAttempt(state, { storyId: 'US-001', headBefore: sha('a'), now: t(3) });
    expect(state.current?.attempt).toBe(2);
    expect(state.current?.iteration).toBe(2);
    state = addUsage(
      state,
      'US-001',
      { costUsd: 0.25, inputTokens: 50, outputTokens: 5, durationMs: 500 },
      t(4),
    );
    state = markPassed(state, 'US-001', { commits: [sha('b')], now: t(4) });
    expect(state.current).toBeNull();
    expect(state.stories['US-001']).toMatchObject({
      attempts: 2,
      passedAt: t(4).toISOString(),
      costUsd: 0.75,
      inputTokens: 150,
      outputTokens: 15,
      durationMs: 1500,
      commits: [sha('b')],
    });
    expect(state.totals).toEqual({ costUsd: 0.75, inputTokens: 150, outputTokens: 15, iterations: 2 });
    expect(RunStateSchema.safeParse(state).success).toBe(true);
  });

  it('parks a story and can give it fresh attempts', () => {
    let state = startAttempt(base(), { storyId: 'US-002', headBefore: sha('c'), now: t(1) });
    state = markFailed(state, 'US-002', { reason: 'timeout', kind: 'timeout', now: t(2), park: true });
    expect(state.stories['US-002']?.parked).toBe(true);
    state = unparkStory(state, 'US-002', t(3));
    expect(state.stories['US-002']?.parked).toBeUndefined();
    expect(state.stories['US-002']?.attempts).toBe(0);
    expect(state.stories['US-002']?.lastFailure?.kind).toBe('timeout');
  });

  it('does not clear another story’s in-flight attempt', () => {
    let state = startAttempt(base(), { storyId: 'US-001', headBefore: sha('a'), now: t(1) });
    state = markFailed(state, 'US-009', { reason: 'x', kind: 'x', now: t(2) });
    expect(state.current?.storyId).toBe('US-001');
  });

  it('records a stop', () => {
    const stopped = markStopped(base(), { reason: 'max iterations', exitCode: 3, now: t(5) });
    expect(stopped.stop).toEqual({ reason: 'max iterations', exitCode: 3, at: t(5).toISOString() });
  });

  it('never mutates its input', () => {
    const before = startAttempt(base(), { storyId: 'US-001', headBefore: sha('a'), now: t(1) });
    const snapshot = structuredClone(before);
    markPassed(addUsage(before, 'US-001', { costUsd: 1 }, t(2)), 'US-001', {
      commits: [sha('d')],
      now: t(2),
    });
    expect(before).toEqual(snapshot);
  });
});
