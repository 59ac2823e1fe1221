/**
 * The end of each recorded real run (test/fixtures/agents/<agent>/outside/:
 * stdout as the CLI wrote it, and how it exited) read as the attempt kernel
 * reads it: through the adapter's parser, its stderr retries, the outside
 * watch and `classifyAgentEnd`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { OutsideCause, OutsideFailure } from '../core/outside-failure.js';
import type { AgentAdapter } from './adapter.js';
import type { AgentEvent, ErrorEvent, RetryEvent } from './agent-event.js';
import { causeOfRetry, causeOfStatus, causeOfText, classifyAgentEnd } from './classify-end.js';
import { watchOutside } from './outside-watch.js';
import { getAdapter } from './registry.js';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/agents/', import.meta.url));

interface Replayed {
  failure: OutsideFailure | null;
  /** Why the outside watch would have stopped the agent early, and after how many events. */
  stoppedEarly: OutsideFailure | undefined;
  retries: number;
}

function replay(agent: string, name: string, dir = 'outside'): Replayed {
  const adapter = getAdapter(agent) as AgentAdapter;
  const base = `${FIXTURES}${agent}/${dir}/${name}`;
  const end = JSON.parse(readFileSync(`${base}.end.json`, 'utf8')) as {
    exitCode: number | null;
    stopReason: 'exited' | 'idle' | 'timeout';
    stderr: string;
  };
  const parser = adapter.createParser();
  const events: AgentEvent[] = [];
  for (const line of readFileSync(`${base}.jsonl`, 'utf8').split('\n'))
    events.push(...parser.parseLine(line));
  for (const line of end.stderr.split('\n')) {
    const retry = adapter.stderrRetry(line);
    if (retry) events.push(retry);
  }
  let stoppedEarly: OutsideFailure | undefined;
  const watch = watchOutside((f) => {
    stoppedEarly ??= f;
  });
  for (const event of events) watch.onEvent(event);
  const errors = events.filter((e): e is ErrorEvent => e.type === 'error');
  const retries = events.filter((e): e is RetryEvent => e.type === 'retry');
  const worked = events.some((e) => ['assistant-text', 'tool-started', 'tool-finished'].includes(e.type));
  const garbage = events.flatMap((e) => (e.type === 'garbage' ? [e.line] : []));
  const failure = classifyAgentEnd(
    {
      stopReason: end.stopReason,
      exitCode: end.exitCode,
      stderrTail: end.stderr,
      errors,
      retries,
      resultFailed: events.some((e) => e.type === 'result' && !e.ok),
      anyOutput: events.length > 0,
      worked,
      garbage,
    },
    adapter.endHints,
  );
  return { failure, stoppedEarly, retries: retries.length };
}

const cases: [agent: string, name: string, cause: OutsideCause, early?: OutsideCause][] = [
  ['claude', 'not-logged-in', 'auth'],
  ['claude', 'auth-401', 'auth', 'auth'],
  ['claude', 'forbidden-403', 'auth'],
  // Recorded with Claude Code's retries at 3: one short of stopping early.
  ['claude', 'overloaded-529', 'overloaded'],
  ['claude', 'server-error-500', 'server-error'],
  ['claude', 'unavailable-503', 'server-error'],
  ['claude', 'rate-limit-429-reset', 'rate-limit'],
  ['claude', 'quota-429', 'quota'],
  ['claude', 'unreachable', 'unreachable', 'unreachable'],
  ['codex', 'no-key', 'auth'],
  ['codex', 'auth-401', 'auth', 'auth'],
  ['codex', 'overloaded-503', 'overloaded'],
  ['codex', 'quota-429', 'quota'],
  ['codex', 'unreachable', 'unreachable', 'unreachable'],
  ['gemini', 'no-key', 'auth'],
  ['gemini', 'key-invalid-400', 'auth'],
  ['gemini', 'auth-401', 'auth'],
  ['gemini', 'forbidden-403', 'auth'],
  ['gemini', 'overloaded-503', 'overloaded'],
  ['gemini', 'unreachable', 'unreachable'],
  ['opencode', 'auth-401', 'auth'],
  // With its log on stderr (the adapter's arguments since): each failed request is a retry ralph reads.
  ['opencode', 'auth-401-logged', 'auth'],
  ['opencode', 'rate-limit-429-logged', 'rate-limit'],
  ['opencode', 'overloaded-529-logged', 'overloaded', 'overloaded'],
  ['opencode', 'server-error-500-logged', 'server-error', 'server-error'],
  ['opencode', 'unavailable-503-logged', 'server-error', 'server-error'],
  ['opencode', 'unreachable-logged', 'unreachable', 'unreachable'],
  ['amp', 'no-key', 'auth', 'auth'],
  ['amp', 'auth-401', 'auth'],
  ['amp', 'unavailable-503', 'server-error'],
  ['amp', 'unreachable', 'unreachable'],
  ['cursor', 'no-login', 'auth'],
  ['cursor', 'key-invalid', 'auth'],
];

describe('classifyAgentEnd on recorded real endings', () => {
  it.each(cases)('%s %s -> %s', (agent, name, cause, early) => {
    const { failure, stoppedEarly } = replay(agent, name);
    expect(failure?.cause).toBe(cause);
    expect(failure?.message.trim()).not.toBe('');
    expect(stoppedEarly?.cause).toBe(early);
  });

  it('stops Claude Code on the second refused login, not after its ten retries over three minutes', () => {
    const { stoppedEarly, retries } = replay('claude', 'auth-401');
    expect(retries).toBe(10);
    expect(stoppedEarly?.message).toMatch(
      /^2 API requests in a row failed \(HTTP 401 authentication_failed\)/,
    );
  });

  it('stops Codex waiting for the network, which it would do until the idle limit', () => {
    const { stoppedEarly } = replay('codex', 'unreachable');
    expect(stoppedEarly?.message).toMatch(/^4 API requests in a row failed \(Connection failed/);
  });

  it("reads Gemini CLI's retries from its stderr (the recordings keep stderr's last 4000 characters)", () => {
    expect(replay('gemini', 'overloaded-503').retries).toBe(1);
    expect(replay('gemini', 'unreachable').retries).toBe(2);
  });

  it('reads the reset time a quota names, where it names one', () => {
    expect(replay('codex', 'quota-429').failure).toMatchObject({ cause: 'quota' });
  });

  it("leaves OpenCode's silent retries to the probe: its stream and stderr say nothing", () => {
    for (const name of ['overloaded-529', 'unavailable-503', 'unreachable']) {
      expect(replay('opencode', name).failure).toBeNull();
    }
  });

  it("stops OpenCode's endless retries of an outage after four, read from its log", () => {
    const { stoppedEarly, retries } = replay('opencode', 'overloaded-529-logged');
    expect(retries).toBe(5);
    expect(stoppedEarly?.message).toMatch(/^4 API requests in a row failed \(Overloaded\)/);
    expect(replay('opencode', 'unreachable-logged').stoppedEarly?.message).toMatch(
      /^4 API requests in a row failed \(Cannot connect to API: Unable to connect/,
    );
  });

  it('takes over a rate limit a CLI would retry for ever, after ten retries of it in a row', () => {
    const limited = { type: 'retry', attempt: 0, maxRetries: 0, reason: 'Rate limit reached' } as const;
    let stopped: OutsideFailure | undefined;
    const watch = watchOutside((f) => {
      stopped = f;
    });
    for (let i = 0; i < 9; i++) watch.onEvent(limited);
    // An answer between them starts the count again.
    watch.onEvent({
      type: 'usage',
      inputTokens: 1,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    for (let i = 0; i < 9; i++) watch.onEvent(limited);
    expect(stopped).toBeUndefined();
    watch.onEvent(limited);
    expect(stopped).toEqual({
      cause: 'rate-limit',
      message: expect.stringMatching(/^10 API requests in a row failed \(Rate limit reached\)/),
    });
  });

  it('blames nothing outside for runs that end on their own, a retry that then succeeded included', () => {
    const agentsOwn: [string, string][] = [
      ['claude', 'tool-run'],
      ['claude', 'multi-tool'],
      ['claude', 'retry-then-success'],
      ['claude', 'max-turns'],
      ['codex', 'tool-run'],
      ['gemini', 'tool-run'],
      ['opencode', 'tool-run'],
    ];
    for (const [agent, name] of agentsOwn) {
      const adapter = getAdapter(agent) as AgentAdapter;
      const events = readFileSync(`${FIXTURES}${agent}/${name}.jsonl`, 'utf8')
        .split('\n')
        .flatMap((line) => adapter.createParser().parseLine(line));
      let stopped: OutsideFailure | undefined;
      const watch = watchOutside((f) => {
        stopped = f;
      });
      for (const event of events) watch.onEvent(event);
      expect(stopped, `${agent} ${name}`).toBeUndefined();
      const errors = events.filter((e): e is ErrorEvent => e.type === 'error');
      const failure = classifyAgentEnd({
        stopReason: 'exited',
        exitCode: 0,
        stderrTail: '',
        errors,
        retries: [],
        resultFailed: false,
        anyOutput: true,
      });
      expect(failure, `${agent} ${name}`).toBeNull();
    }
  });
});

describe('the pieces', () => {
  it('names causes by status, no answer being a connection failure', () => {
    expect([401, 403, 429, 529, 500, 503, 400, undefined].map(causeOfStatus)).toEqual([
      'auth',
      'auth',
      'rate-limit',
      'overloaded',
      'server-error',
      'server-error',
      null,
      'unreachable',
    ]);
  });

  it('does not read a port or a tool failure as an outage', () => {
    expect(causeOfText('check your gateway (127.0.0.1:45290)')).toBeNull();
    expect(causeOfText('Prompt is too long')).toBeNull();
    expect(causeOfText('The agent reached max turns')).toBeNull();
  });

  it("reads a retry without a status as Claude Code's connection failure", () => {
    expect(causeOfRetry({ type: 'retry', attempt: 1, maxRetries: 4, reason: 'unknown' })).toBe('unreachable');
    expect(
      causeOfRetry({ type: 'retry', attempt: 1, maxRetries: 4, reason: 'overloaded', status: 529 }),
    ).toBe('overloaded');
  });

  it('puts a binary that would not start, and a shell that could not run it, down as not startable', () => {
    const base = { errors: [], retries: [], resultFailed: false, anyOutput: false };
    expect(
      classifyAgentEnd({
        ...base,
        stopReason: 'spawn-error',
        exitCode: null,
        stderrTail: 'spawn /x/claude ENOENT',
      }),
    ).toEqual({ cause: 'not-startable', message: 'spawn /x/claude ENOENT' });
    expect(
      classifyAgentEnd({ ...base, stopReason: 'exited', exitCode: 127, stderrTail: 'env: node: not found' }),
    ).toMatchObject({ cause: 'not-startable' });
  });

  it('leaves an interrupted run to the user, whatever it said', () => {
    const error: ErrorEvent = { type: 'error', kind: 'auth', message: 'Invalid API key' };
    expect(
      classifyAgentEnd({
        stopReason: 'aborted',
        exitCode: null,
        stderrTail: '',
        errors: [error],
        retries: [],
        resultFailed: true,
        anyOutput: true,
      }),
    ).toBeNull();
  });
});
