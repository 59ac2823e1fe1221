import { describe, expect, it } from 'vitest';
import { buildStory } from '../../test/support/story-builder.js';
import type { Prd, Story } from '../core/types.js';
import type { LockStatus } from '../state/lock.js';
import type { RunState } from '../state/run-state.js';
import { emptyActivity } from './run-activity.js';
import { goalRunView, type PrdRead, prdRunView } from './run-views.js';

const story = (id: string, status: Story['status'] = 'todo'): Story =>
  buildStory(id, { title: `Title of ${id}`, status });
const prd = (...stories: Story[]): Prd => ({
  format: 'prd-json',
  path: '/p/prd.json',
  project: 'Demo',
  stories,
});
const record = (attempts: number, extra: object = {}) => ({
  attempts,
  costUsd: 0.5 * attempts,
  inputTokens: 0,
  outputTokens: 0,
  durationMs: 60_000 * attempts,
  commits: [],
  ...extra,
});
const held: LockStatus = {
  kind: 'held',
  reason: 'running',
  info: { pid: 42, host: 'box', startedAt: '2026-01-01T00:00:00.000Z', command: 'ralph run demo' },
};
const state = (over: Partial<RunState> = {}): RunState => ({
  version: 1,
  name: 'demo',
  taskPath: '/p/prd.json',
  startedAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  iteration: 3,
  current: null,
  stories: {},
  totals: { costUsd: 1.5, inputTokens: 0, outputTokens: 0, iterations: 3 },
  ...over,
});
const read = (over: Partial<PrdRead>): PrdRead => ({
  name: 'demo',
  lock: { kind: 'free' },
  activity: emptyActivity,
  questions: [],
  control: null,
  prd: null,
  error: null,
  state: null,
  ...over,
});
const current = {
  storyId: 'US-002',
  attempt: 2,
  iteration: 3,
  headBefore: 'abc1234',
  startedAt: '2026-01-01T00:00:00.000Z',
};

describe('prdRunView', () => {
  it('gives each story its state: done, running, waiting on a question, parked with its reason, to do', () => {
    const view = prdRunView(
      read({
        lock: held,
        prd: prd(story('US-001', 'done'), story('US-002'), story('US-003'), story('US-004'), story('US-005')),
        state: state({
          current,
          stories: {
            'US-001': record(1),
            'US-002': record(2),
            'US-004': record(3, {
              parked: true,
              lastFailure: { reason: 'gate failed', kind: 'gate', at: current.startedAt },
            }),
          },
        }),
        questions: [
          { id: 'US-003', storyId: 'US-003', question: 'Which?', askedAt: current.startedAt, answer: null },
        ],
      }),
    );
    expect(view.items.map((i) => [i.id, i.state, i.attempts, i.reason])).toEqual([
      ['US-001', 'done', 1, null],
      ['US-002', 'running', 2, null],
      ['US-003', 'waiting', 0, null],
      ['US-004', 'parked', 3, 'gate failed'],
      ['US-005', 'todo', 0, null],
    ]);
    expect(view).toMatchObject({
      phase: 'running',
      done: 1,
      total: 5,
      costUsd: 1.5,
      live: { pid: 42, host: 'box' },
    });
  });

  it('a current attempt without a live run is a run that stopped unexpectedly, not a running story', () => {
    const view = prdRunView(read({ prd: prd(story('US-001'), story('US-002')), state: state({ current }) }));
    expect(view.phase).toBe('stopped-unexpectedly');
    expect(view.items.map((i) => i.state)).toEqual(['todo', 'todo']);
    expect(view.detail).toMatch(/stopped unexpectedly at .* with US-002 attempt 2 in flight/);
    expect(view.inFlight).toEqual(['US-002 attempt 2']);
    expect(view.live).toBeNull();
  });

  it('complete, invalid and stopped runs, and a control request only for the live run it names', () => {
    expect(prdRunView(read({ prd: prd(story('US-001', 'done')) })).phase).toBe('complete');
    expect(prdRunView(read({ error: 'the task file does not read: x' })).phase).toBe('invalid');
    const stopped = prdRunView(
      read({
        prd: prd(story('US-001')),
        state: state({ stop: { reason: 'max-cost', at: current.startedAt, exitCode: 3 } }),
      }),
    );
    expect([stopped.phase, stopped.detail]).toEqual(['stopped', 'stopped: max-cost']);
    const request = {
      version: 1 as const,
      request: 'pause' as const,
      at: current.startedAt,
      from: 'web page',
      run: { pid: 42, host: 'box', startedAt: '2026-01-01T00:00:00.000Z' },
    };
    expect(prdRunView(read({ lock: held, prd: prd(story('US-001')), control: request })).control).toBe(
      'pause',
    );
    expect(prdRunView(read({ prd: prd(story('US-001')), control: request })).control).toBeNull();
    const old = { ...request, run: { ...request.run, pid: 7 } };
    expect(prdRunView(read({ lock: held, prd: prd(story('US-001')), control: old })).control).toBeNull();
  });
});

describe('prdRunView in words a person reads', () => {
  it('shows clock times, never raw ISO timestamps, and how a paused run goes on', () => {
    const running = prdRunView(
      read({
        lock: held,
        prd: prd(story('US-001')),
        activity: {
          ...emptyActivity,
          iteration: { number: 2, label: 'US-001 Title', startedAt: '2026-01-02T03:04:05.678Z' },
        },
      }),
    );
    expect(running.detail).toBe('iteration 2: US-001 Title, since 03:04:05 UTC');
    const waiting = prdRunView(
      read({
        lock: held,
        prd: prd(story('US-001')),
        activity: {
          ...emptyActivity,
          waiting: { reason: 'rate-limit', message: 'try later', until: '2026-01-02T04:00:00.000Z' },
        },
      }),
    );
    expect(waiting.detail).toBe('waiting (rate-limit): try later until 04:00:00 UTC');
    const paused = prdRunView(
      read({
        prd: prd(story('US-001')),
        activity: {
          ...emptyActivity,
          finished: { message: 'stopped', exitCode: 130, at: '2026-01-02T04:00:00.000Z' },
        },
      }),
    );
    expect(paused.detail).toBe('stopped (exit 130); `ralph run demo` goes on from there');
  });
});

describe('goalRunView', () => {
  it('shows the steps, and a goal that needs a person says why', () => {
    const view = goalRunView({
      name: 'speed',
      lock: { kind: 'free' },
      activity: emptyActivity,
      questions: [],
      control: null,
      error: null,
      summary: {
        name: 'speed',
        goal: 'Make it fast\nmore words',
        state: 'needs-human',
        mode: 'executing',
        iteration: null,
        steps: [
          { id: 'step-1', prompt: 'Measure', state: 'done', iterations: 1, costUsd: 0.2, durationMs: 1000 },
          { id: 'step-2', prompt: 'Cache', state: 'todo', iterations: 2, costUsd: 0.4, durationMs: 2000 },
        ],
        done: 1,
        total: 2,
        iterations: 4,
        costUsd: 0.9,
        inputTokens: 0,
        outputTokens: 0,
        stop: { reason: 'needs-human', exitCode: 1 },
        finalSummary: null,
        humanNeeded: { reason: 'which cache?', details: 'redis or memory' },
      },
    });
    expect(view).toMatchObject({
      kind: 'goal',
      title: 'Make it fast',
      phase: 'needs-human',
      done: 1,
      total: 2,
    });
    expect(view.detail).toBe('needs a person: which cache?');
    expect(view.items.map((i) => [i.id, i.state, i.attempts])).toEqual([
      ['step-1', 'done', 1],
      ['step-2', 'todo', 2],
    ]);
  });
});
