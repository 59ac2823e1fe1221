import { describe, expect, it } from 'vitest';
import type { EventOf, RunEvent, RunEventRecord } from '../events/run-event.js';
import { newTally, notificationsFor, type RunTally, tallied } from './webhook-payload.js';

const at = '2026-01-02T03:04:05.000Z';
const stamp = (event: RunEvent): RunEventRecord => ({ ...event, at, run: 'demo' });

/** The notifications of a run's events, in order, each with the tally after its event. */
function notify(events: RunEvent[]) {
  let tally: RunTally = newTally('demo');
  return events.flatMap((event) => {
    const record = stamp(event);
    tally = tallied(tally, record);
    return notificationsFor(record, tally);
  });
}

const started: EventOf<'run-started'> = {
  type: 'run-started',
  name: 'demo',
  project: 'Demo',
  agent: 'claude',
  cwd: '/x',
  maxIterations: 8,
  remaining: 3,
  resumed: false,
  passed: 0,
  total: 3,
  costUsd: 0.25,
};

describe('webhook notifications', () => {
  it('carries the spend rounded to a millionth of a dollar, without floating-point residue', () => {
    const usage = (costUsd: number): RunEvent => ({
      type: 'usage',
      iteration: 1,
      storyId: 'US-001',
      costUsd,
      inputTokens: 1,
      outputTokens: 1,
    });
    const parked: RunEvent = {
      type: 'story-parked',
      storyId: 'US-001',
      attempts: 2,
      reason: 'checks failed',
    };
    const [note] = notify([{ ...started, costUsd: 0 }, usage(0.024), usage(0.024), usage(0.024), parked]);
    expect(0.024 + 0.024 + 0.024).not.toBe(0.072);
    expect(note?.costUsd).toBe(0.072);
  });

  it('a question: the sentence names the story, the question and the command; counts and spend come along', () => {
    const [question, ...rest] = notify([
      started,
      { type: 'usage', iteration: 1, storyId: 'US-001', costUsd: 0.5, inputTokens: 1, outputTokens: 1 },
      {
        type: 'story-passed',
        iteration: 1,
        storyId: 'US-001',
        title: 'A',
        attempt: 1,
        commits: [],
        costUsd: 0.5,
        durationMs: 1,
      },
      {
        type: 'question-asked',
        iteration: 2,
        storyId: 'US-002',
        questionId: 'US-002',
        question: 'Postgres\nor SQLite?\u001b]52;c;evil\u0007',
      },
    ]);
    expect(rest).toEqual([]);
    expect(question).toMatchObject({
      event: 'question',
      prd: 'demo',
      story: 'US-002',
      passed: 1,
      total: 3,
      costUsd: 0.75,
      at,
      questionId: 'US-002',
      answerCommand: 'ralph answer demo US-002 "<your answer>"',
    });
    // One line, and the terminal escape shows as symbols instead of acting.
    expect(question?.text).toBe(
      'US-002 asks: Postgres or SQLite?␛]52;c;evil␇ — answer with: ralph answer demo US-002 "<your answer>"',
    );
  });

  it('a parked story, an outage wait and an agent that cannot log in; a wait for answers is no news', () => {
    const kinds = notify([
      started,
      { type: 'story-parked', storyId: 'US-001', attempts: 3, reason: 'tests fail' },
      {
        type: 'waiting',
        reason: 'outage',
        message: 'API overloaded',
        until: '2026-01-02T04:00:00.000Z',
        waitMs: 60_000,
      },
      { type: 'waiting', reason: 'question', message: 'waiting for an answer: US-002' },
      {
        type: 'agent-unusable',
        agent: 'claude',
        kind: 'auth',
        message: 'not logged in',
        fix: 'Run claude login.',
      },
    ]);
    expect(kinds.map((n) => n.event)).toEqual(['story-parked', 'waiting', 'auth-failed']);
    expect(kinds[0]).toMatchObject({ story: 'US-001', reason: 'tests fail', attempts: 3 });
    expect(kinds[1]).toMatchObject({ reason: 'outage', until: '2026-01-02T04:00:00.000Z' });
    expect(kinds[1]?.text).toContain('until 2026-01-02T04:00:00.000Z');
    expect(kinds[2]?.text).toBe('demo stopped: claude cannot be used: not logged in. Run claude login.');
  });

  it('the end of a run: its outcome and how to resume; a limit is also told as limit-reached', () => {
    const finished = (reason: 'all-done' | 'max-cost' | 'questions', exitCode: number): RunEvent => ({
      type: 'run-finished',
      exitCode,
      reason,
      message: reason,
      passed: 2,
      total: 3,
      parked: [],
      costUsd: 1.5,
      iterations: 4,
      ...(reason === 'questions'
        ? {
            questions: [
              {
                id: 'US-002',
                storyId: 'US-002',
                question: 'Which?',
                command: 'ralph answer demo US-002 "<your answer>"',
              },
            ],
          }
        : {}),
    });
    const [done] = notify([started, finished('all-done', 0)]);
    expect(done).toMatchObject({
      event: 'run-finished',
      outcome: 'all-done',
      exitCode: 0,
      passed: 2,
      costUsd: 1.5,
    });
    expect(done).not.toHaveProperty('resume');
    const limited = notify([started, finished('max-cost', 3)]);
    expect(limited.map((n) => n.event)).toEqual(['limit-reached', 'run-finished']);
    expect(limited[0]).toMatchObject({ limit: 'max-cost', resume: 'ralph run demo' });
    const [asking] = notify([started, finished('questions', 1)]);
    expect(asking?.text).toContain('US-002 asks: Which? — ralph answer demo US-002');
    expect(asking?.text).toMatch(/Resume with: ralph run demo$/);
  });

  it('a goal run: its name and goal, steps for stories', () => {
    const { passed: _passed, total: _total, ...bare } = started;
    const [end] = notify([
      {
        ...bare,
        goal: {
          text: 'Migrate the db\nand more',
          iterationsBefore: 0,
          minIterations: 0,
          idleThreshold: 3,
          steps: { total: 4, completed: 1 },
        },
      },
      { type: 'question-asked', iteration: 2, questionId: 'Q2', question: 'Which URL?' },
    ]);
    expect(end).toMatchObject({ prd: 'demo', goal: 'Migrate the db', passed: 1, total: 4, questionId: 'Q2' });
    expect(end?.text).toMatch(/^goal run demo asks: Which URL\?/);
  });
});
