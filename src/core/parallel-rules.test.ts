import { describe, expect, it } from 'vitest';
import { buildStory } from '../../test/support/story-builder.js';
import { ExitCode } from './errors.js';
import { startLimit, whenIdle } from './parallel-rules.js';

const spend = { costUsd: 2, iterations: 2 };
const idle = {
  remaining: [buildStory('B', { dependsOn: ['A'] })],
  landed: new Set<string>(),
  parked: new Set(['A']),
  stop: 'none' as const,
  limit: null,
  maxIterations: 7,
  holding: false,
  allDone: 'all stories passed',
};

describe('startLimit', () => {
  it('counts the attempts of every worker against --max-iterations', () => {
    expect(startLimit({ attempts: 3, maxIterations: 3, spend, maxCostUsd: undefined, running: 2 })).toBe(
      'max-iterations',
    );
    expect(
      startLimit({ attempts: 2, maxIterations: 3, spend, maxCostUsd: undefined, running: 2 }),
    ).toBeNull();
  });

  it('counts the attempts still running against --max-cost', () => {
    // $1 an attempt: $2 spent + 2 running + the next would reach $5.
    expect(startLimit({ attempts: 0, maxIterations: 9, spend, maxCostUsd: 4.5, running: 2 })).toBe(
      'max-cost',
    );
    expect(startLimit({ attempts: 0, maxIterations: 9, spend, maxCostUsd: 4.5, running: 1 })).toBeNull();
  });
});

describe('whenIdle', () => {
  it('finishes when every story landed, whatever else holds', () => {
    expect(whenIdle({ ...idle, remaining: [], stop: 'graceful' })).toMatchObject({
      reason: 'all-done',
      exitCode: ExitCode.Success,
    });
  });

  it('an interrupt, then a limit, come before a rate-limit hold and before blocked', () => {
    expect(whenIdle({ ...idle, stop: 'immediate', holding: true })).toMatchObject({
      reason: 'interrupted',
      exitCode: 130,
    });
    expect(whenIdle({ ...idle, limit: 'max-iterations', holding: true })).toMatchObject({
      reason: 'max-iterations',
      exitCode: ExitCode.LimitReached,
      message: 'reached the limit of 7 iterations',
    });
    expect(whenIdle({ ...idle, holding: true })).toEqual({ kind: 'hold' });
  });

  it('says which stories are stuck, and on what', () => {
    expect(whenIdle({ ...idle, remaining: [buildStory('A'), ...idle.remaining] })).toEqual({
      kind: 'finish',
      reason: 'blocked',
      exitCode: ExitCode.WorkLeft,
      message: 'stopped with work left: A (parked); B (waits on A)',
    });
  });
});

describe('whenIdle with questions', () => {
  const asking = {
    ...idle,
    remaining: [buildStory('A'), buildStory('B', { dependsOn: ['A'] })],
    parked: new Set<string>(),
    asked: new Set(['A']),
  };

  it('stops with exit 1 when only a story waiting for an answer and its dependants are left', () => {
    expect(whenIdle(asking)).toEqual({
      kind: 'finish',
      reason: 'questions',
      exitCode: ExitCode.WorkLeft,
      message: 'stopped with work left: A (waits for an answer); B (waits on A)',
    });
  });

  it('waits for the answer with --wait, but an interrupt or a limit still ends the run', () => {
    expect(whenIdle({ ...asking, waitForAnswers: true })).toEqual({ kind: 'await-answers' });
    expect(whenIdle({ ...asking, waitForAnswers: true, stop: 'graceful' })).toMatchObject({
      reason: 'interrupted',
    });
    expect(whenIdle({ ...asking, waitForAnswers: true, limit: 'max-cost' })).toMatchObject({
      reason: 'max-cost',
    });
  });
});
