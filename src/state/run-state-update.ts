import type { RunState, StoryRun } from './run-state.js';

/** Pure, immutable updates of a run state; the engine writes the result. */

export interface Usage {
  costUsd?: number;
  inputTokens?: number;
  outputTokens?: number;
  durationMs?: number;
}

const emptyStory = (): StoryRun => ({
  attempts: 0,
  costUsd: 0,
  inputTokens: 0,
  outputTokens: 0,
  durationMs: 0,
  commits: [],
});

export function newRunState(init: { name: string; taskPath: string; now: Date }): RunState {
  const at = init.now.toISOString();
  return {
    version: 1,
    name: init.name,
    taskPath: init.taskPath,
    startedAt: at,
    updatedAt: at,
    iteration: 0,
    current: null,
    stories: {},
    totals: { costUsd: 0, inputTokens: 0, outputTokens: 0, iterations: 0 },
  };
}

/** The story's record, or an empty one if it has not been attempted. */
export const storyRun = (state: RunState, storyId: string): StoryRun =>
  state.stories[storyId] ?? emptyStory();

function withStory(state: RunState, storyId: string, now: Date, change: (s: StoryRun) => StoryRun): RunState {
  return {
    ...state,
    updatedAt: now.toISOString(),
    stories: { ...state.stories, [storyId]: change(storyRun(state, storyId)) },
  };
}

/** Opens the next iteration for a story; `current` records it for crash recovery. */
export function startAttempt(
  state: RunState,
  attempt: { storyId: string; headBefore: string; now: Date; agentToken?: string },
): RunState {
  const iteration = state.iteration + 1;
  const attempts = storyRun(state, attempt.storyId).attempts + 1;
  const next = withStory(state, attempt.storyId, attempt.now, (s) => ({ ...s, attempts }));
  return {
    ...next,
    iteration,
    totals: { ...next.totals, iterations: next.totals.iterations + 1 },
    current: {
      storyId: attempt.storyId,
      attempt: attempts,
      iteration,
      headBefore: attempt.headBefore,
      startedAt: attempt.now.toISOString(),
      ...(attempt.agentToken !== undefined ? { agentToken: attempt.agentToken } : {}),
    },
  };
}

/** Adds an iteration's spend to the story and to the totals. */
export function addUsage(state: RunState, storyId: string, usage: Usage, now: Date): RunState {
  const cost = usage.costUsd ?? 0;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const next = withStory(state, storyId, now, (s) => ({
    ...s,
    costUsd: s.costUsd + cost,
    inputTokens: s.inputTokens + input,
    outputTokens: s.outputTokens + output,
    durationMs: s.durationMs + (usage.durationMs ?? 0),
  }));
  return {
    ...next,
    totals: {
      ...next.totals,
      costUsd: next.totals.costUsd + cost,
      inputTokens: next.totals.inputTokens + input,
      outputTokens: next.totals.outputTokens + output,
    },
  };
}

export function markPassed(
  state: RunState,
  storyId: string,
  result: { commits: string[]; now: Date },
): RunState {
  const next = withStory(state, storyId, result.now, (s) => {
    const { parked: _parked, ...rest } = s;
    return { ...rest, passedAt: result.now.toISOString(), commits: [...s.commits, ...result.commits] };
  });
  return finishCurrent(next, storyId, result.now);
}

/** Records a failed attempt; `park` once the story has used up its retries. */
export function markFailed(
  state: RunState,
  storyId: string,
  failure: { reason: string; kind: string; now: Date; park?: boolean; gateOutputTail?: string },
): RunState {
  const next = withStory(state, storyId, failure.now, ({ lastRequeue: _requeue, ...s }) => ({
    ...s,
    lastFailure: {
      reason: failure.reason,
      kind: failure.kind,
      at: failure.now.toISOString(),
      ...(failure.gateOutputTail ? { gateOutputTail: failure.gateOutputTail } : {}),
    },
    ...(failure.park ? { parked: true } : {}),
  }));
  return finishCurrent(next, storyId, failure.now);
}

/** Gives a parked story a fresh set of attempts (usage and history are kept). */
export function unparkStory(state: RunState, storyId: string, now: Date): RunState {
  return withStory(state, storyId, now, (s) => {
    const { parked: _parked, ...rest } = s;
    return { ...rest, attempts: 0 };
  });
}

export function markStopped(
  state: RunState,
  stop: { reason: string; exitCode: number; now: Date },
): RunState {
  const at = stop.now.toISOString();
  return { ...state, updatedAt: at, stop: { reason: stop.reason, exitCode: stop.exitCode, at } };
}

/** Closes the story's attempt in flight, adding its wall time to the story's. */
function finishCurrent(state: RunState, storyId: string, now: Date): RunState {
  const current = state.current;
  if (current?.storyId !== storyId) return state;
  const timed = withElapsed(state, storyId, now.getTime() - Date.parse(current.startedAt));
  return { ...timed, current: null };
}

/** Adds an attempt's wall time (start to verdict) to its story. */
export function withElapsed(state: RunState, storyId: string, ms: number): RunState {
  const story = state.stories[storyId];
  if (story === undefined || !(ms > 0)) return state;
  return {
    ...state,
    stories: {
      ...state.stories,
      [storyId]: { ...story, elapsedMs: (story.elapsedMs ?? 0) + Math.round(ms) },
    },
  };
}

/** Parks a story without an attempt: its spend has reached the per-story budget. */
export function markParked(state: RunState, storyId: string, now: Date): RunState {
  return withStory(state, storyId, now, (s) => ({ ...s, parked: true }));
}
