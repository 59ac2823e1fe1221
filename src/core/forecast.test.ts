import { describe, expect, it } from 'vitest';
import { describeForecast, type Forecast, forecastRest, shortForecast, storiesLeft } from './forecast.js';
import type { Story } from './types.js';

const minutes = (m: number) => m * 60_000;

function made(forecast: Forecast | null): Forecast {
  if (forecast === null) throw new Error('expected a forecast');
  return forecast;
}

describe('forecastRest', () => {
  it('has no basis before a story has passed, and nothing to say with nothing left', () => {
    expect(forecastRest([], 5)).toBeNull();
    expect(forecastRest([{ ms: minutes(2), costUsd: 0.1 }], 0)).toBeNull();
  });

  it('is the stories left times the median story, with the quartiles as its range', () => {
    const passed = [
      { ms: minutes(1), costUsd: 0.1 },
      { ms: minutes(2), costUsd: 0.2 },
      { ms: minutes(3), costUsd: 0.3 },
      { ms: minutes(10), costUsd: 1.3 },
    ];
    const forecast = forecastRest(passed, 4);
    // Median 2.5 min, quartiles 1.75 and 4.75 min; a slow outlier moves the high end, not the estimate.
    expect(forecast).toEqual({
      storiesLeft: 4,
      basedOn: 4,
      ms: { estimate: minutes(10), low: minutes(7), high: minutes(19) },
      costUsd: {
        estimate: expect.closeTo(1.0, 9),
        low: expect.closeTo(0.7, 9),
        high: expect.closeTo(2.2, 9),
      },
      lanes: 1,
    });
    expect(describeForecast(made(forecast))).toBe(
      '4 stories left: ~10m 00s (7m 00s–19m 00s) and ~$1.00 ($0.70–$2.20), at the pace of 4 passed stories',
    );
    expect(shortForecast(made(forecast))).toBe('left ~10m 00s (7m 00s–19m 00s) ~$1.00');
  });

  it('counts a story at what all its attempts took, and says when one story is all it rests on', () => {
    const forecast = forecastRest([{ ms: minutes(3), costUsd: 0.06 }], 2);
    expect(forecast?.ms).toEqual({ estimate: minutes(6), low: minutes(6), high: minutes(6) });
    expect(describeForecast(made(forecast))).toBe(
      '2 stories left: ~6m 00s and ~$0.12, at the pace of 1 passed story',
    );
  });

  it('divides the time among stories worked on at once, never among more than are left', () => {
    const passed = [{ ms: minutes(4), costUsd: 0.2 }];
    expect(forecastRest(passed, 8, 4)?.ms.estimate).toBe(minutes(8));
    expect(forecastRest(passed, 2, 4)).toMatchObject({ lanes: 2, ms: { estimate: minutes(4) } });
    expect(forecastRest(passed, 8, 4)?.costUsd?.estimate).toBeCloseTo(1.6, 9);
    expect(describeForecast(made(forecastRest(passed, 8, 4)))).toContain(', 4 at a time');
  });

  it('shows times to the nearest second', () => {
    expect(shortForecast(made(forecastRest([{ ms: 2_900, costUsd: 0 }], 1)))).toBe('left ~3s');
  });

  it('leaves the cost out when no passed story reported one', () => {
    const forecast = forecastRest([{ ms: minutes(1), costUsd: 0 }], 1);
    expect(forecast?.costUsd).toBeNull();
    expect(describeForecast(made(forecast))).toBe('1 story left: ~1m 00s, at the pace of 1 passed story');
    expect(shortForecast(made(forecast))).toBe('left ~1m 00s');
  });
});

describe('storiesLeft', () => {
  const story = (id: string, order: number, status: Story['status'] = 'todo'): Story => ({
    id,
    title: id,
    description: '',
    acceptanceCriteria: [],
    priority: order,
    status,
    dependsOn: [],
    order,
    location: { file: 'prd.json' },
  });
  const stories = [story('A', 1, 'done'), story('B', 2), story('C', 3), story('D', 4), story('E', 5)];

  it('counts the stories in scope not passed, less the parked and one passed a moment ago', () => {
    expect(storiesLeft(stories, {}, new Set())).toBe(4);
    expect(storiesLeft(stories, {}, new Set(['D']), 'B')).toBe(2);
    expect(storiesLeft(stories, { resumeFromId: 'D' }, new Set())).toBe(2);
    expect(storiesLeft(stories, { onlyStoryId: 'C' }, new Set(), 'C')).toBe(0);
  });
});
