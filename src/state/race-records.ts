import type { Reservation } from '../core/landing-race.js';
import type { Failure, Resolving, RunState } from './run-state.js';
import { storyRun } from './run-state-update.js';

/**
 * Pure updates of a parallel run's state around a race (verified work the
 * PRD branch's new tip no longer takes): the resolution run in flight, the
 * reservation of the next landing, and a requeue, which gives the story's
 * attempt back instead of counting it.
 */

/**
 * A resolution run starts. It belongs to the iteration whose verified work
 * it brings onto the new tip (its agent's stream is
 * `iterations/<n>-resolution.jsonl`): it is not an attempt of its own.
 */
export function startResolving(
  state: RunState,
  start: { storyId: string; worktree: string; iteration: number; now: Date },
): RunState {
  return {
    ...state,
    updatedAt: start.now.toISOString(),
    resolving: {
      storyId: start.storyId,
      worktree: start.worktree,
      iteration: start.iteration,
      startedAt: start.now.toISOString(),
    },
  };
}

export function updateResolving(
  state: RunState,
  change: Partial<Pick<Resolving, 'agentPid' | 'agentToken'>>,
): RunState {
  return state.resolving ? { ...state, resolving: { ...state.resolving, ...change } } : state;
}

export function endResolving(state: RunState, now: Date): RunState {
  const { resolving: _done, ...rest } = state;
  return { ...rest, updatedAt: now.toISOString() };
}

/** Sets (or, with null, clears) the reservation of the next landing. */
export function reserveLanding(state: RunState, reserved: Reservation | null, now: Date): RunState {
  const { reserved: _previous, ...rest } = state;
  return {
    ...rest,
    updatedAt: now.toISOString(),
    ...(reserved ? { reserved: { storyId: reserved.storyId, files: [...reserved.files] } } : {}),
  };
}

/**
 * The story's verified work is dropped and it is redone from the new tip:
 * the attempt that produced the work is given back (the redo has its
 * number), and why is kept for the redo's prompt in place of a failure.
 */
export function markRequeued(
  state: RunState,
  storyId: string,
  requeue: { requeues: number; note: Omit<Failure, 'at'>; now: Date },
): RunState {
  const { lastFailure: _failure, ...story } = storyRun(state, storyId);
  return {
    ...state,
    updatedAt: requeue.now.toISOString(),
    stories: {
      ...state.stories,
      [storyId]: {
        ...story,
        attempts: Math.max(0, story.attempts - 1),
        requeues: requeue.requeues,
        lastRequeue: { ...requeue.note, at: requeue.now.toISOString() },
      },
    },
  };
}
