import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../events/run-event.js';
import { describeEvent } from './plain-reporter.js';

const started: Extract<RunEvent, { type: 'run-started' }> = {
  type: 'run-started',
  name: 'demo',
  project: 'Demo',
  agent: 'claude',
  cwd: '/x',
  maxIterations: 9,
  remaining: 4,
  resumed: true,
};

const finished: Extract<RunEvent, { type: 'run-finished' }> = {
  type: 'run-finished',
  reason: 'all-done',
  exitCode: 0,
  message: 'all stories passed',
  passed: 5,
  total: 5,
  parked: [],
  costUsd: 0.5,
  iterations: 4,
};

describe('the plain lines count iterations as the iteration lines and status do', () => {
  it('a resumed run starts with the last iteration number the `N/last` lines show', () => {
    expect(describeEvent({ ...started, lastIteration: 11 }, false)).toContain(
      'up to iteration 11 (9 this session)',
    );
    expect(describeEvent({ ...started, resumed: false }, false)).toContain('up to 9 iterations');
  });

  it("the last line gives every session's iterations beside the run's whole cost", () => {
    expect(describeEvent({ ...finished, iterationsInAll: 6 }, false)).toContain(
      '5/5 passed, 4 iterations this session, 6 in all, $0.50',
    );
    expect(describeEvent({ ...finished, iterationsInAll: 4 }, false)).toContain(
      '5/5 passed, 4 iterations, $0.50',
    );
  });

  it("a failed gate's last lines without -v, all it kept with -v", () => {
    const check: RunEvent = {
      type: 'check-finished',
      iteration: 1,
      command: 'npm test',
      exitCode: 1,
      durationMs: 100,
      outputTail: Array.from({ length: 8 }, (_, i) => `line ${i + 1}`).join('\n'),
    };
    const plain = describeEvent(check, false) ?? '';
    expect(plain.split('\n').map((l) => l.trim())).toEqual([
      'check failed (exit 1): npm test 0.1s',
      '…',
      'line 4',
      'line 5',
      'line 6',
      'line 7',
      'line 8',
    ]);
    expect((describeEvent(check, true) ?? '').split('\n')).toHaveLength(9);
  });
});
