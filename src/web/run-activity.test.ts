import { describe, expect, it } from 'vitest';
import type { RunEventRecord } from '../events/run-event.js';
import { emptyActivity, foldActivity, type RunActivity } from './run-activity.js';

const stamp = (minute: number) => ({
  at: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
  run: 'demo',
});
const fold = (records: RunEventRecord[]): RunActivity => records.reduce(foldActivity, emptyActivity);

const asked = (minute: number, questionId: string, question: string, storyId?: string): RunEventRecord => ({
  ...stamp(minute),
  type: 'question-asked',
  iteration: minute,
  questionId,
  question,
  ...(storyId ? { storyId } : {}),
});

describe('foldActivity', () => {
  it('keeps the questions asked and not answered, oldest first', () => {
    const activity = fold([
      asked(1, 'US-002', 'Which database?', 'US-002'),
      asked(2, 'Q3', 'Ship it?'),
      { ...stamp(3), type: 'question-answered', storyId: 'US-002', questionId: 'US-002', answer: 'Postgres' },
      asked(4, 'US-004', 'Which colour?', 'US-004'),
    ]);
    expect(activity.questions).toEqual([
      { id: 'Q3', storyId: null, question: 'Ship it?', askedAt: stamp(2).at },
      { id: 'US-004', storyId: 'US-004', question: 'Which colour?', askedAt: stamp(4).at },
    ]);
  });

  it('a question asked again replaces the earlier wording', () => {
    const activity = fold([
      asked(1, 'US-002', 'Which database?', 'US-002'),
      asked(5, 'US-002', 'Postgres or MySQL?', 'US-002'),
    ]);
    expect(activity.questions).toEqual([
      { id: 'US-002', storyId: 'US-002', question: 'Postgres or MySQL?', askedAt: stamp(5).at },
    ]);
  });

  it('an outage wait lasts until the next iteration; a question is not a wait of its own', () => {
    const waiting = fold([
      { ...stamp(1), type: 'waiting', reason: 'outage', message: 'API unreachable', until: stamp(9).at },
      { ...stamp(2), type: 'waiting', reason: 'question', message: 'US-002 asks' },
    ]);
    expect(waiting.waiting).toEqual({ reason: 'outage', message: 'API unreachable', until: stamp(9).at });
    const resumed = foldActivity(waiting, {
      ...stamp(9),
      type: 'iteration-started',
      iteration: 4,
      maxIterations: 8,
      headBefore: 'abc1234',
      storyId: 'US-003',
      title: 'Shout',
      attempt: 2,
      maxAttempts: 3,
    });
    expect(resumed.waiting).toBeNull();
    expect(resumed.iteration).toEqual({ number: 4, label: 'US-003 attempt 2', startedAt: stamp(9).at });
  });

  it('remembers how the last session ended until the next one starts', () => {
    const ended = fold([
      {
        ...stamp(1),
        type: 'run-finished',
        exitCode: 3,
        reason: 'max-cost',
        message: 'stopped: the cost limit was reached',
        passed: 1,
        total: 3,
        parked: [],
        costUsd: 2,
        iterations: 4,
      },
    ]);
    expect(ended.finished).toEqual({
      message: 'stopped: the cost limit was reached',
      exitCode: 3,
      at: stamp(1).at,
    });
    const again = foldActivity(ended, {
      ...stamp(2),
      type: 'run-started',
      name: 'demo',
      project: 'Demo',
      agent: 'claude',
      cwd: '/x',
      maxIterations: 5,
      remaining: 2,
      resumed: true,
    });
    expect(again.finished).toBeNull();
  });

  it('a goal iteration is labelled with its mode and step', () => {
    const activity = fold([
      {
        ...stamp(1),
        type: 'iteration-started',
        iteration: 2,
        maxIterations: 50,
        headBefore: 'abc1234',
        mode: 'executing',
        step: { id: 'step-1', prompt: 'Write it' },
      },
    ]);
    expect(activity.iteration?.label).toBe('executing step-1');
  });
});
