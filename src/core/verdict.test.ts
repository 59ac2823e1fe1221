import { describe, expect, it } from 'vitest';
import type { SignalInterpretation } from './signals.js';
import {
  type AttemptInput,
  type CheckResult,
  type FailureKind,
  judgeAttempt,
  type StopReason,
  shouldRunChecks,
  type Verdict,
} from './verdict.js';

const DONE: SignalInterpretation = { kind: 'done' };
const commit = { sha: 'a'.repeat(40), subject: 'feat: US-001 - Thing' };
const ok = (command: string): CheckResult => ({ command, exitCode: 0, outputTail: 'fine' });

/** An attempt that passes; each test changes one thing. */
const passing = (over: Partial<AttemptInput> = {}): AttemptInput => ({
  expectedStoryId: 'US-001',
  signals: DONE,
  agentStop: { stopReason: 'exited', exitCode: 0, resultOk: true },
  newCommits: [commit],
  checks: [ok('npm run typecheck'), ok('npm test')],
  treeClean: true,
  ...over,
});

const kindOf = (verdict: Verdict): string => verdict.kind;
const reasonOf = (verdict: Verdict): string => ('reason' in verdict ? verdict.reason : '');

describe('judgeAttempt: pass', () => {
  it('passes with DONE for the story, a commit, a clean tree and green checks', () => {
    expect(judgeAttempt(passing())).toEqual({ kind: 'pass' });
  });

  it('passes with no checks configured', () => {
    expect(judgeAttempt(passing({ checks: [] }))).toEqual({ kind: 'pass' });
  });

  it.each<[StopReason, number | null]>([
    ['idle', null],
    ['timeout', null],
    ['exited', 1],
  ])('counts a DONE said before the agent stopped (%s, exit %s)', (stopReason, exitCode) => {
    expect(judgeAttempt(passing({ agentStop: { stopReason, exitCode, resultOk: false } }))).toEqual({
      kind: 'pass',
    });
  });

  it('passes verified work even when a rate limit followed it', () => {
    expect(judgeAttempt(passing({ rateLimited: { resetsAt: '2030-01-01T00:00:00Z' } }))).toEqual({
      kind: 'pass',
    });
  });
});

describe('judgeAttempt: failures', () => {
  const cases: [string, Partial<AttemptInput>, FailureKind, RegExp][] = [
    [
      'FAIL signal',
      { signals: { kind: 'fail', reason: 'db is down' } },
      'fail-signal',
      /reported FAIL: db is down/,
    ],
    ['FAIL with no reason', { signals: { kind: 'fail', reason: '' } }, 'fail-signal', /without a reason/],
    [
      'DONE for another story',
      { signals: { kind: 'done-wrong-id', id: 'US-002' } },
      'wrong-id',
      /US-002.*US-001/,
    ],
    ['DONE with no id', { signals: { kind: 'done-wrong-id', id: '' } }, 'wrong-id', /no story id/],
    [
      'no signal, clean exit',
      { signals: { kind: 'none' } },
      'no-signal',
      /without signalling DONE US-001 or FAIL/,
    ],
    [
      'no signal, exit 0 but an error result',
      { signals: { kind: 'none' }, agentStop: { stopReason: 'exited', exitCode: 0, resultOk: false } },
      'crash',
      /error result/,
    ],
    [
      'no signal, non-zero exit',
      { signals: { kind: 'none' }, agentStop: { stopReason: 'exited', exitCode: 2 } },
      'crash',
      /exited with code 2/,
    ],
    [
      'no signal, killed',
      { signals: { kind: 'none' }, agentStop: { stopReason: 'exited', exitCode: null } },
      'crash',
      /killed/,
    ],
    [
      'no signal, timed out',
      { signals: { kind: 'none' }, agentStop: { stopReason: 'timeout', exitCode: null } },
      'timeout',
      /time limit/,
    ],
    [
      'no signal, idle',
      { signals: { kind: 'none' }, agentStop: { stopReason: 'idle', exitCode: null } },
      'idle',
      /no output/,
    ],
    [
      'spawn error, even with a DONE somehow',
      { agentStop: { stopReason: 'spawn-error', exitCode: null } },
      'crash',
      /could not be started/,
    ],
    [
      'aborted, even with everything else fine',
      { agentStop: { stopReason: 'aborted', exitCode: null } },
      'aborted',
      /interrupted/,
    ],
    ['DONE without a commit', { newCommits: [] }, 'no-commit', /DONE for US-001, but made no new commit\.$/],
    [
      'DONE without a commit, then stopped at the time limit',
      { newCommits: [], agentStop: { stopReason: 'timeout', exitCode: null } },
      'no-commit',
      /no new commit\. \(It was then stopped at the time limit\.\)/,
    ],
    ['DONE, committed, dirty tree', { treeClean: false }, 'dirty-tree', /uncommitted changes\.$/],
    [
      'dirty tree with paths named',
      { treeClean: false, dirtyPaths: ['a.ts', 'b.ts'] },
      'dirty-tree',
      /Uncommitted: a\.ts, b\.ts\./,
    ],
    ['checks never run', { checks: 'not-run' }, 'check-failed', /not run/],
    [
      'a killed check',
      { checks: [{ command: 'npm test', exitCode: null, outputTail: '' }] },
      'check-failed',
      /`npm test` was killed/,
    ],
  ];

  it.each(cases)('%s', (_name, over, kind, reason) => {
    const verdict = judgeAttempt(passing(over));
    expect(kindOf(verdict)).toBe(kind);
    expect(reasonOf(verdict)).toMatch(reason);
  });

  it('mentions commits made when there was no signal', () => {
    const verdict = judgeAttempt(passing({ signals: { kind: 'none' }, newCommits: [commit, commit] }));
    expect(reasonOf(verdict)).toMatch(/made 2 commits/);
  });

  it('names the failing check, its exit code, and keeps its output tail', () => {
    const verdict = judgeAttempt(
      passing({
        checks: [
          ok('npm run typecheck'),
          { command: 'npm test', exitCode: 1, outputTail: 'FAIL a.test.ts\n  expected 2\n' },
        ],
      }),
    );
    expect(verdict).toEqual({
      kind: 'check-failed',
      reason: 'The check `npm test` exited with code 1.',
      gateOutputTail: '$ npm test\nFAIL a.test.ts\n  expected 2',
    });
  });

  it('lists every failing check', () => {
    const verdict = judgeAttempt(
      passing({
        checks: [
          { command: 'tsc', exitCode: 2, outputTail: 'TS2322' },
          ok('biome check'),
          { command: 'vitest run', exitCode: 1, outputTail: 'boom' },
        ],
      }),
    );
    expect(reasonOf(verdict)).toBe(
      '2 checks failed: `tsc` exited with code 2; `vitest run` exited with code 1.',
    );
    expect('gateOutputTail' in verdict ? verdict.gateOutputTail : '').toBe(
      '$ tsc\nTS2322\n\n$ vitest run\nboom',
    );
  });

  it('judges the signal before the commit, and the commit before the tree and checks', () => {
    const bad = { newCommits: [], treeClean: false, checks: [{ command: 'x', exitCode: 1, outputTail: '' }] };
    expect(kindOf(judgeAttempt(passing({ ...bad, signals: { kind: 'fail', reason: 'r' } })))).toBe(
      'fail-signal',
    );
    expect(kindOf(judgeAttempt(passing(bad)))).toBe('no-commit');
    expect(kindOf(judgeAttempt(passing({ ...bad, newCommits: [commit] })))).toBe('dirty-tree');
  });

  it('lists at most ten dirty paths', () => {
    const dirtyPaths = Array.from({ length: 13 }, (_, i) => `f${i}`);
    expect(reasonOf(judgeAttempt(passing({ treeClean: false, dirtyPaths })))).toMatch(/f9 and 3 more\./);
  });
});

describe('judgeAttempt: rate limits', () => {
  it('reports a rate limit instead of a story failure', () => {
    const verdict = judgeAttempt(
      passing({
        signals: { kind: 'none' },
        newCommits: [],
        checks: 'not-run',
        rateLimited: { resetsAt: '2030-01-01T05:00:00Z', message: 'Usage limit reached.' },
      }),
    );
    expect(verdict).toEqual({
      kind: 'rate-limited',
      resetsAt: '2030-01-01T05:00:00Z',
      reason: 'The agent hit a rate or usage limit (resets at 2030-01-01T05:00:00Z). Usage limit reached.',
    });
  });

  it('also when the agent had said FAIL, or a check failed', () => {
    expect(kindOf(judgeAttempt(passing({ signals: { kind: 'fail', reason: 'x' }, rateLimited: {} })))).toBe(
      'rate-limited',
    );
    const red = [{ command: 't', exitCode: 1, outputTail: '' }];
    expect(judgeAttempt(passing({ checks: red, rateLimited: {} }))).toEqual({
      kind: 'rate-limited',
      reason: 'The agent hit a rate or usage limit.',
    });
  });

  it('but not when the run was interrupted', () => {
    const verdict = judgeAttempt(
      passing({ agentStop: { stopReason: 'aborted', exitCode: null }, rateLimited: {} }),
    );
    expect(kindOf(verdict)).toBe('aborted');
  });
});

describe('shouldRunChecks', () => {
  const { checks: _checks, ...ready } = passing();

  it('is true with DONE, a commit and a clean tree', () => {
    expect(shouldRunChecks(ready)).toBe(true);
    expect(shouldRunChecks({ ...ready, agentStop: { stopReason: 'idle', exitCode: null } })).toBe(true);
  });

  it.each<[string, Partial<AttemptInput>]>([
    ['no signal', { signals: { kind: 'none' } }],
    ['FAIL', { signals: { kind: 'fail', reason: '' } }],
    ['wrong id', { signals: { kind: 'done-wrong-id', id: 'US-9' } }],
    ['no commit', { newCommits: [] }],
    ['dirty tree', { treeClean: false }],
    ['aborted', { agentStop: { stopReason: 'aborted', exitCode: null } }],
    ['spawn error', { agentStop: { stopReason: 'spawn-error', exitCode: null } }],
  ])('is false with %s', (_name, over) => {
    expect(shouldRunChecks({ ...ready, ...over })).toBe(false);
  });

  it('agrees with judgeAttempt: checks are the only thing left when it says yes', () => {
    expect(judgeAttempt({ ...ready, checks: [{ command: 'x', exitCode: 1, outputTail: '' }] }).kind).toBe(
      'check-failed',
    );
    expect(judgeAttempt({ ...ready, checks: [] }).kind).toBe('pass');
  });
});

describe('judgeAttempt: questions', () => {
  const ASK: SignalInterpretation = { kind: 'ask', question: 'PostgreSQL or SQLite?' };

  it('a question is neither a pass nor a failure, whatever the agent committed', () => {
    const verdict = judgeAttempt(passing({ signals: ASK }));
    expect(verdict).toEqual({
      kind: 'question',
      question: 'PostgreSQL or SQLite?',
      reason: 'The agent asked: PostgreSQL or SQLite?',
    });
    expect(shouldRunChecks(passing({ signals: ASK }))).toBe(false);
  });

  it('stands when the agent then went silent, or hit a rate limit', () => {
    const idle = passing({ signals: ASK, agentStop: { stopReason: 'idle', exitCode: null } });
    expect(kindOf(judgeAttempt(idle))).toBe('question');
    expect(kindOf(judgeAttempt(passing({ signals: ASK, rateLimited: {} })))).toBe('question');
  });

  it('but an interrupt stays an interrupt', () => {
    const aborted = passing({ signals: ASK, agentStop: { stopReason: 'aborted', exitCode: null } });
    expect(kindOf(judgeAttempt(aborted))).toBe('aborted');
  });
});
