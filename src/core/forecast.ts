/**
 * What the rest of a run will take, from the run's own pace so far: the
 * stories left times the median time and cost of a story that passed,
 * its failed attempts included. How sure it is comes as a range and a
 * count: the range is what the rest would take if every story went like
 * the quicker or the slower quarter of those passed so far (the 25th and
 * 75th percentiles), and the count is how many passed stories it rests on.
 * Pure: the callers read the figures from the run state.
 */
import { formatDuration } from './duration.js';
import { formatUsd } from './money.js';
import { remainingStories, type SelectionOptions } from './select.js';
import type { Story } from './types.js';

/** A passed story's figures: wall time and spend of all its attempts together. */
export interface StoryPace {
  ms: number;
  costUsd: number;
}

export interface Spread {
  estimate: number;
  low: number;
  high: number;
}

export interface Forecast {
  storiesLeft: number;
  /** Passed stories the pace is taken from. */
  basedOn: number;
  ms: Spread;
  /** Null when no passed story reported a cost (an agent that does not say what it spends). */
  costUsd: Spread | null;
  /** Stories worked on at once (`--parallel`): the time is divided among them. */
  lanes: number;
}

/** The forecast for `storiesLeft` more stories; null without a basis (nothing passed yet) or with nothing left. */
export function forecastRest(passed: readonly StoryPace[], storiesLeft: number, lanes = 1): Forecast | null {
  if (passed.length === 0 || storiesLeft < 1) return null;
  const atOnce = Math.max(1, Math.min(Math.floor(lanes), storiesLeft));
  const costs = passed.map((p) => p.costUsd);
  return {
    storiesLeft,
    basedOn: passed.length,
    ms: spread(
      passed.map((p) => p.ms),
      storiesLeft / atOnce,
    ),
    costUsd: costs.some((c) => c > 0) ? spread(costs, storiesLeft) : null,
    lanes: atOnce,
  };
}

/** Stories a run still has to do: in its scope, not passed, not parked, and not `passedNow` (a pass the task file read before it does not show yet). */
export function storiesLeft(
  stories: readonly Story[],
  scope: Pick<SelectionOptions, 'onlyStoryId' | 'resumeFromId'>,
  parked: ReadonlySet<string>,
  passedNow?: string,
): number {
  return remainingStories(stories, scope).filter((s) => !parked.has(s.id) && s.id !== passedNow).length;
}

/** `3 stories left: ~6m 40s (5m 20s–8m 40s) and ~$0.24 ($0.20–$0.32), at the pace of 4 passed stories`. */
export function describeForecast(forecast: Forecast): string {
  const left = `${forecast.storiesLeft} stor${forecast.storiesLeft === 1 ? 'y' : 'ies'} left`;
  const took = `~${time(forecast.ms.estimate)}${range(forecast.ms, time)}`;
  const cost = forecast.costUsd
    ? ` and ~${formatUsd(forecast.costUsd.estimate)}${range(forecast.costUsd, formatUsd)}`
    : '';
  const basis = `${forecast.basedOn} passed stor${forecast.basedOn === 1 ? 'y' : 'ies'}`;
  const lanes = forecast.lanes > 1 ? `, ${forecast.lanes} at a time` : '';
  return `${left}: ${took}${cost}, at the pace of ${basis}${lanes}`;
}

/** The header's few words: `left ~6m 40s (5m 20s–8m 40s) ~$0.24`. */
export function shortForecast(forecast: Forecast): string {
  const cost = forecast.costUsd ? ` ~${formatUsd(forecast.costUsd.estimate)}` : '';
  return `left ~${time(forecast.ms.estimate)}${range(forecast.ms, time)}${cost}`;
}

/** A forecast's time, to the nearest second (a clock's `formatDuration` cuts the seconds off). */
const time = (ms: number): string => formatDuration(Math.round(ms / 1000) * 1000);

function spread(values: readonly number[], factor: number): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    estimate: quantile(sorted, 0.5) * factor,
    low: quantile(sorted, 0.25) * factor,
    high: quantile(sorted, 0.75) * factor,
  };
}

/** The q-quantile of sorted values, interpolated between the two nearest. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const below = sorted[Math.floor(at)] ?? 0;
  const above = sorted[Math.ceil(at)] ?? below;
  return below + (above - below) * (at - Math.floor(at));
}

/** ` (low–high)` as shown, or nothing when both ends show the same. */
function range(spread: Spread, format: (n: number) => string): string {
  const low = format(spread.low);
  const high = format(spread.high);
  return low === high ? '' : ` (${low}–${high})`;
}
