import { type Forecast, forecastRest, type StoryPace } from '../core/forecast.js';
import type { RunState } from './run-state.js';

/**
 * The run's pace so far: each story it passed, at the wall time and spend of
 * all its attempts together. A state written before wall times were kept
 * has the agent's time instead.
 */
export function passedPaces(state: RunState | null): StoryPace[] {
  return Object.values(state?.stories ?? {})
    .filter((s) => s.passedAt !== undefined)
    .map((s) => ({ ms: s.elapsedMs ?? s.durationMs, costUsd: s.costUsd }));
}

/** The forecast of a run from its state: null until a story has passed. */
export const runForecast = (state: RunState | null, storiesLeft: number, lanes = 1): Forecast | null =>
  forecastRest(passedPaces(state), storiesLeft, lanes);

/** The stories the run state has parked. */
export const parkedIn = (state: RunState | null): Set<string> =>
  new Set(Object.entries(state?.stories ?? {}).flatMap(([id, s]) => (s.parked ? [id] : [])));
