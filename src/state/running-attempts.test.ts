import { describe, expect, it } from 'vitest';
import { markFailed, newRunState } from './run-state-update.js';
import { endRunning, runningAttempt, startRunning, updateRunning } from './running-attempts.js';

const now = new Date('2026-01-01T00:00:00Z');
const start = (storyId: string, worker: number) => ({
  storyId,
  worker,
  headBefore: 'a'.repeat(40),
  branch: `ralph-stories/demo/${storyId}`,
  worktree: `/tmp/${storyId}`,
  now,
});

describe('running attempts', () => {
  it('gives each attempt its own iteration and counts it against its story', () => {
    let state = newRunState({ name: 'demo', taskPath: 'prd.json', now });
    state = startRunning(state, start('A', 1));
    state = startRunning(state, start('B', 2));
    expect(state.running?.map((r) => [r.storyId, r.iteration, r.attempt, r.worker])).toEqual([
      ['A', 1, 1, 1],
      ['B', 2, 1, 2],
    ]);
    expect(state.totals.iterations).toBe(2);
    state = updateRunning(state, 'B', { agentPid: 42, phase: 'agent' });
    expect(runningAttempt(state, 'B')).toMatchObject({ agentPid: 42 });
    expect(state.current).toBeNull();
  });

  it('ends an attempt, giving it back when it was not the story’s fault', () => {
    let state = newRunState({ name: 'demo', taskPath: 'prd.json', now });
    state = startRunning(state, start('A', 1));
    state = markFailed(endRunning(state, 'A', now), 'A', { reason: 'no', kind: 'no-commit', now });
    state = startRunning(state, start('A', 1));
    expect(runningAttempt(state, 'A')?.attempt).toBe(2);
    state = endRunning(state, 'A', now, true);
    expect(state.running).toEqual([]);
    expect(state.stories.A?.attempts).toBe(1);
  });
});
