import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventRecord } from '../events/run-event.js';
import { iterationRecords } from './transcript.js';

const at = '2026-01-02T03:04:05.000Z';
const rec = (event: RunEvent): RunEventRecord => ({ ...event, at, run: 'demo' });
const start = (resumed: boolean): RunEvent => ({
  type: 'run-started',
  name: 'demo',
  project: 'Demo',
  agent: 'claude',
  cwd: '/x',
  maxIterations: 5,
  remaining: 2,
  resumed,
});

describe('iterationRecords', () => {
  it("ends a stopped iteration at the next session's start: the next run's lines are not its own", () => {
    const records = [
      rec(start(false)),
      rec({
        type: 'iteration-started',
        iteration: 1,
        storyId: 'US-001',
        title: 'A',
        attempt: 1,
        maxAttempts: 3,
        maxIterations: 5,
        headBefore: 'abc',
      }),
      rec({ type: 'stop-requested', how: 'immediate' }),
      rec(start(true)),
      rec({ type: 'recovered', iteration: 1, action: 'rolled-back', storyId: 'US-001' } as RunEvent),
      rec({ type: 'max-iterations-changed', maxIterations: 6 }),
      rec({
        type: 'iteration-started',
        iteration: 2,
        storyId: 'US-001',
        title: 'A',
        attempt: 2,
        maxAttempts: 3,
        maxIterations: 6,
        headBefore: 'abc',
      }),
    ];
    expect(iterationRecords(records, 1).map((r) => r.type)).toEqual(['iteration-started', 'stop-requested']);
    expect(iterationRecords(records, 2).map((r) => r.type)).toEqual(['iteration-started']);
  });
});
