import type { RunState } from '../state/run-state.js';

/** An attempt that was not the story's fault (rate limit, Ctrl-C, crash of ralph itself) is not counted. */
export function undoAttempt(state: RunState, storyId: string, now: Date): RunState {
  const story = state.stories[storyId];
  const stories = story
    ? { ...state.stories, [storyId]: { ...story, attempts: Math.max(0, story.attempts - 1) } }
    : state.stories;
  return { ...state, stories, current: null, updatedAt: now.toISOString() };
}
