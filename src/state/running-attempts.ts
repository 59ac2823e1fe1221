import type { Integrating, RunningAttempt, RunState } from './run-state.js';
import { storyRun, withElapsed } from './run-state-update.js';

/**
 * Pure updates of a parallel run's state: several attempts in flight at
 * once (`running`, one per worker) instead of the single `current`, and the
 * story being landed (`integrating`).
 */

export interface RunningStart {
  storyId: string;
  worker: number;
  headBefore: string;
  branch: string;
  worktree: string;
  now: Date;
}

/** Opens an attempt on a worker: a new iteration number, one more attempt at the story. */
export function startRunning(state: RunState, start: RunningStart): RunState {
  const iteration = state.iteration + 1;
  const previous = storyRun(state, start.storyId);
  const entry: RunningAttempt = {
    storyId: start.storyId,
    attempt: previous.attempts + 1,
    iteration,
    headBefore: start.headBefore,
    startedAt: start.now.toISOString(),
    worker: start.worker,
    branch: start.branch,
    worktree: start.worktree,
  };
  return {
    ...state,
    updatedAt: start.now.toISOString(),
    iteration,
    totals: { ...state.totals, iterations: state.totals.iterations + 1 },
    stories: { ...state.stories, [start.storyId]: { ...previous, attempts: entry.attempt } },
    running: [...(state.running ?? []).filter((r) => r.storyId !== start.storyId), entry],
  };
}

export const runningAttempt = (state: RunState, storyId: string): RunningAttempt | undefined =>
  state.running?.find((r) => r.storyId === storyId);

export function updateRunning(
  state: RunState,
  storyId: string,
  change: Partial<Pick<RunningAttempt, 'agentPid' | 'agentToken' | 'phase'>>,
): RunState {
  return {
    ...state,
    running: (state.running ?? []).map((r) => (r.storyId === storyId ? { ...r, ...change } : r)),
  };
}

/**
 * Closes a story's attempt on its worker. `uncount`: it was not the story's
 * fault (rate limit, Ctrl-C, a crash of ralph itself) and does not use up a
 * retry.
 */
export function endRunning(state: RunState, storyId: string, now: Date, uncount = false): RunState {
  const ended = runningAttempt(state, storyId);
  const running = (state.running ?? []).filter((r) => r.storyId !== storyId);
  const story = state.stories[storyId];
  const stories =
    uncount && story
      ? { ...state.stories, [storyId]: { ...story, attempts: Math.max(0, story.attempts - 1) } }
      : state.stories;
  const next = { ...state, running, stories, updatedAt: now.toISOString() };
  // A counted attempt's wall time is the story's: the forecast's pace.
  return ended && !uncount ? withElapsed(next, storyId, now.getTime() - Date.parse(ended.startedAt)) : next;
}

export const startIntegrating = (state: RunState, integrating: Integrating): RunState => ({
  ...state,
  integrating,
  updatedAt: integrating.startedAt,
});

export function endIntegrating(state: RunState, now: Date): RunState {
  const { integrating: _done, ...rest } = state;
  return { ...rest, updatedAt: now.toISOString() };
}
