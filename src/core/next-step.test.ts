import { describe, expect, it } from 'vitest';
import { buildStory } from '../../test/support/story-builder.js';
import { ExitCode } from './errors.js';
import { afterStoryAttempt, nextStoryStep, reservationHoldsUp, type StoryRunView } from './next-step.js';

const story = (id: string, over: Parameters<typeof buildStory>[1] = {}) =>
  buildStory(id, { order: id.charCodeAt(id.length - 1), ...over });

/** A sequential run (one worker, nothing running) with two open stories, B after A. */
function view(over: Partial<StoryRunView> = {}): StoryRunView {
  return {
    stories: [story('A'), story('B', { dependsOn: ['A'] })],
    scope: { onlyStoryId: undefined, resumeFromId: undefined },
    parked: new Set(),
    asked: new Set(),
    busy: new Set(),
    passedThisRun: new Set(),
    workers: 1,
    running: 0,
    landing: 0,
    toLand: 0,
    interrupt: 'none',
    holding: false,
    waitForAnswers: false,
    limits: { maxIterations: 10 },
    spend: { attempts: 0, costUsd: 0, finishedIterations: 0 },
    storySpend: () => ({ costUsd: 0, attempts: 0 }),
    ...over,
  };
}

describe('nextStoryStep: attempt', () => {
  it('attempts the next ready story as a story', () => {
    expect(nextStoryStep(view())).toEqual({ kind: 'attempt', storyId: 'A', role: 'story' });
  });

  it('attempts a story in progress first, and one redone after a race before any', () => {
    const stories = [story('A'), story('B', { status: 'in-progress' }), story('C')];
    expect(nextStoryStep(view({ stories }))).toMatchObject({ storyId: 'B' });
    expect(nextStoryStep(view({ stories, first: new Set(['C']) }))).toMatchObject({ storyId: 'C' });
  });

  it('fills free workers with stories not busy, and none past the workers', () => {
    const stories = [story('A'), story('B'), story('C')];
    const busy = new Set(['A']);
    expect(nextStoryStep(view({ stories, workers: 3, running: 1, busy }))).toMatchObject({ storyId: 'B' });
    expect(nextStoryStep(view({ stories, workers: 2, running: 2, busy }))).toEqual({
      kind: 'wait',
      for: 'running',
    });
  });
});

describe('nextStoryStep: park', () => {
  it('parks a story whose attempts already cost --max-cost-per-story, before starting anything', () => {
    const step = nextStoryStep(
      view({
        limits: { maxIterations: 0, maxCostPerStoryUsd: 1 },
        storySpend: (id) => (id === 'A' ? { costUsd: 1.5, attempts: 2 } : { costUsd: 0, attempts: 0 }),
      }),
    );
    expect(step).toMatchObject({ kind: 'park', storyId: 'A', attempts: 2 });
    expect(step.kind === 'park' && step.reason).toMatch(/per-story budget of \$1\.00/);
  });
});

describe('nextStoryStep: wait', () => {
  it('waits for running work before it ends, and for what waits to land', () => {
    expect(nextStoryStep(view({ running: 1, busy: new Set(['A']) }))).toEqual({
      kind: 'wait',
      for: 'running',
    });
    expect(nextStoryStep(view({ landing: 1, busy: new Set(['A']) }))).toEqual({
      kind: 'wait',
      for: 'running',
    });
    expect(nextStoryStep(view({ toLand: 1, busy: new Set(['A']) }))).toEqual({
      kind: 'wait',
      for: 'running',
    });
  });

  it('waits out a hold with nothing running, and starts nothing while it lasts', () => {
    expect(nextStoryStep(view({ holding: true }))).toEqual({ kind: 'wait', for: 'hold' });
  });

  it('with --wait, waits for an answer when only asking stories and their dependants are left', () => {
    const asked = new Set(['A']);
    expect(nextStoryStep(view({ asked, waitForAnswers: true }))).toEqual({ kind: 'wait', for: 'answer' });
  });

  it('waits for running work before an outside stop, and a hold before it too', () => {
    const stopFor = {
      kind: 'stop',
      reason: 'agent-unusable',
      exitCode: ExitCode.AgentUnusable,
      message: 'x',
    } as const;
    expect(nextStoryStep(view({ stopFor, running: 1 }))).toEqual({ kind: 'wait', for: 'running' });
    expect(nextStoryStep(view({ stopFor, holding: true }))).toEqual({ kind: 'wait', for: 'hold' });
  });
});

describe('nextStoryStep: stop', () => {
  const stopOf = (v: StoryRunView) => {
    const step = nextStoryStep(v);
    if (step.kind !== 'stop') throw new Error(`expected a stop, got ${step.kind}`);
    return step;
  };

  it('all done: exit 0, saying so in the scope it ran', () => {
    const stories = [story('A', { status: 'done' }), story('B', { status: 'done' })];
    expect(stopOf(view({ stories }))).toEqual({
      kind: 'stop',
      reason: 'all-done',
      exitCode: ExitCode.Success,
      message: 'all stories passed',
    });
  });

  it('interrupted: once, or twice with attempts rolled back', () => {
    expect(stopOf(view({ interrupt: 'graceful' }))).toMatchObject({
      reason: 'interrupted',
      exitCode: ExitCode.Interrupted,
      message: 'stopped',
    });
    expect(stopOf(view({ interrupt: 'immediate' })).message).toBe(
      'stopped; the interrupted attempts were rolled back',
    );
  });

  it('--max-iterations counts the attempts started this session', () => {
    const step = stopOf(
      view({ spend: { attempts: 1, costUsd: 0, finishedIterations: 1 }, limits: { maxIterations: 1 } }),
    );
    expect(step).toMatchObject({ reason: 'max-iterations', exitCode: ExitCode.LimitReached });
    expect(step.message).toBe('reached the limit of 1 iteration');
  });

  it('--max-cost stops before an attempt that would likely cross it', () => {
    const step = stopOf(
      view({
        spend: { attempts: 2, costUsd: 4, finishedIterations: 2 },
        limits: { maxIterations: 9, maxCostUsd: 5 },
      }),
    );
    expect(step).toMatchObject({ reason: 'max-cost', message: 'stopped before exceeding the $5 budget' });
  });

  it('blocked by a parked story: exit 1, naming each story left and why', () => {
    const step = stopOf(view({ parked: new Set(['A']) }));
    expect(step).toMatchObject({ reason: 'blocked', exitCode: ExitCode.WorkLeft });
    expect(step.message).toBe('stopped with work left: A (parked); B (waits on A)');
  });

  it('questions without --wait: exit 1, the asking story named', () => {
    const step = stopOf(view({ asked: new Set(['A']) }));
    expect(step).toMatchObject({ reason: 'questions', exitCode: ExitCode.WorkLeft });
    expect(step.message).toMatch(/A \(waits for an answer\)/);
  });

  it('an outside stop ends the run once nothing runs or holds', () => {
    const stopFor = {
      kind: 'stop',
      reason: 'outage-wait',
      exitCode: ExitCode.LimitReached,
      message: 'out',
    } as const;
    expect(nextStoryStep(view({ stopFor }))).toBe(stopFor);
  });
});

describe('afterStoryAttempt', () => {
  const limits = { maxRetries: 3, maxCostPerStoryUsd: 2 };
  const failed = { kind: 'failed', storyId: 'A', reason: 'gates failed', costUsd: 0.5 } as const;

  it('a failure with retries left and budget left decides nothing: pick again', () => {
    expect(afterStoryAttempt({ ...failed, attempt: 2 }, limits)).toBeNull();
  });

  it('parks a story out of retries, with the failure as the reason', () => {
    expect(afterStoryAttempt({ ...failed, attempt: 3 }, limits)).toEqual({
      kind: 'park',
      storyId: 'A',
      attempts: 3,
      reason: 'gates failed',
    });
  });

  it('parks a story whose attempts reached --max-cost-per-story, saying so', () => {
    const step = afterStoryAttempt({ ...failed, attempt: 1, costUsd: 2 }, limits);
    expect(step).toMatchObject({ kind: 'park', attempts: 1 });
    expect(step?.kind === 'park' && step.reason).toMatch(/--max-cost-per-story/);
  });

  it('an interrupted attempt stops the run', () => {
    expect(afterStoryAttempt({ kind: 'aborted' }, limits)).toEqual({
      kind: 'stop',
      reason: 'interrupted',
      exitCode: ExitCode.Interrupted,
      message: 'stopped; the interrupted attempt was rolled back',
    });
  });
});

describe('reservationHoldsUp', () => {
  const base = {
    reserved: 'A',
    busy: new Set<string>(),
    interrupt: 'none',
    holding: false,
    running: 0,
    workers: 2,
  } as const;

  it('gives up a reservation whose story cannot start later', () => {
    expect(reservationHoldsUp(base)).toBe(true);
    expect(reservationHoldsUp({ ...base, interrupt: 'graceful', holding: true })).toBe(true);
  });

  it('keeps it while its story runs, or waits only for a hold or a free worker', () => {
    expect(reservationHoldsUp({ ...base, busy: new Set(['A']) })).toBe(false);
    expect(reservationHoldsUp({ ...base, holding: true })).toBe(false);
    expect(reservationHoldsUp({ ...base, running: 2 })).toBe(false);
    expect(reservationHoldsUp({ ...base, reserved: undefined })).toBe(false);
  });
});
