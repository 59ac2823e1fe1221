import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent-event.js';
import { createClaudeParser } from './claude-parser.js';

// Recorded from the real Claude Code 2.1.197 against the scripted server (see the README beside them).
const fixture = (name: string): string[] =>
  readFileSync(
    fileURLToPath(new URL(`../../../test/fixtures/agents/claude/${name}.jsonl`, import.meta.url)),
    'utf8',
  )
    .split('\n')
    .filter((line) => line !== '');

const parseAll = (lines: string[]): AgentEvent[] => {
  const parser = createClaudeParser();
  return lines.flatMap((line) => parser.parseLine(line));
};

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

describe('Claude stream parser on recorded runs', () => {
  it('reads a tool-using run: session, text, tools, usage and result', () => {
    const events = parseAll(fixture('tool-run'));
    expect(events.map((e) => e.type)).toEqual([
      'session-started',
      'assistant-text',
      'tool-started',
      'tool-finished',
      'tool-started',
      'tool-finished',
      'assistant-text',
      'usage',
      'result',
    ]);
    const [session] = ofType(events, 'session-started');
    expect(session?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(session?.model).toContain('claude-opus-4-8');

    const [write, bash] = ofType(events, 'tool-started');
    expect(write).toMatchObject({ id: 'toolu_fake_0_0', name: 'Write' });
    expect(write?.summary).toMatch(/\/hello\.txt$/);
    expect(bash).toMatchObject({ id: 'toolu_fake_1_0', name: 'Bash' });
    expect(bash?.summary).toContain('git commit -q -m "feat: US-001 - Hello"');

    const [wrote, committed] = ofType(events, 'tool-finished');
    expect(wrote).toMatchObject({ id: 'toolu_fake_0_0', ok: true });
    expect(wrote?.output).toContain('File created successfully');
    expect(committed).toMatchObject({ id: 'toolu_fake_1_0', ok: true });
    expect(committed?.output).toMatch(/^[0-9a-f]{7} feat: US-001 - Hello$/);

    expect(ofType(events, 'assistant-text').map((e) => e.text)).toEqual([
      'I will create the file.',
      'Created hello.txt and committed. <ralph>DONE US-001</ralph>',
    ]);
    expect(ofType(events, 'usage')).toEqual([
      {
        type: 'usage',
        inputTokens: 3600,
        outputTokens: 240,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: 0.024,
      },
    ]);
    const [result] = ofType(events, 'result');
    expect(result).toMatchObject({
      ok: true,
      subtype: 'success',
      text: 'Created hello.txt and committed. <ralph>DONE US-001</ralph>',
      costUsd: 0.024,
      numTurns: 3,
      sessionId: session?.sessionId,
    });
    expect(result?.durationMs).toEqual(expect.any(Number));
  });

  it('reports failed tool calls as not ok, several tools per turn', () => {
    const events = parseAll(fixture('multi-tool'));
    expect(ofType(events, 'tool-started').map((e) => [e.name, e.summary])).toEqual([
      ['Bash', 'echo first'],
      ['Bash', 'echo second; exit 3'],
      ['Read', 'missing-file.txt'],
    ]);
    expect(ofType(events, 'tool-finished').map((e) => [e.id, e.ok])).toEqual([
      ['toolu_fake_0_0', true],
      ['toolu_fake_0_1', false],
      ['toolu_fake_1_0', false],
    ]);
    expect(ofType(events, 'tool-finished')[1]?.output).toBe('Exit code 3\nsecond');
    expect(ofType(events, 'result')[0]?.ok).toBe(true);
  });

  it.each([
    ['rate-limit-429', 'rate-limit', /429/],
    ['overloaded-529', 'overloaded', /529 Overloaded/],
    ['auth-401-retried', 'auth', /Invalid API key/],
  ])('turns the API failure in %s into one %s error and a failed result', (name, kind, message) => {
    const events = parseAll(fixture(name));
    const errors = ofType(events, 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.kind).toBe(kind);
    expect(errors[0]?.message).toMatch(message);
    // The CLI's error text is not the agent's: no signal may be read from it.
    expect(ofType(events, 'assistant-text')).toEqual([]);
    const [result] = ofType(events, 'result');
    expect(result).toMatchObject({ ok: false, subtype: 'success' });
    expect(events.at(-1)?.type).toBe('result');
  });

  it('reads api_retry lines as the CLI retrying (not an error) and the recovered run after them', () => {
    const events = parseAll(fixture('retry-then-success'));
    expect(events.map((e) => e.type)).toEqual([
      'session-started',
      'retry',
      'assistant-text',
      'usage',
      'result',
    ]);
    expect(ofType(events, 'retry')[0]).toEqual({
      type: 'retry',
      attempt: 1,
      maxRetries: 2,
      delayMs: 519.3376068051227,
      status: 529,
      reason: 'overloaded',
    });
    expect(ofType(events, 'result')[0]?.ok).toBe(true);
    expect(ofType(events, 'error')).toEqual([]);
  });

  it('reads an error_* ending as a failed result with its reason, not as an API error', () => {
    const events = parseAll(fixture('max-turns'));
    expect(ofType(events, 'error')).toEqual([]);
    expect(ofType(events, 'result')[0]).toMatchObject({
      ok: false,
      subtype: 'error_max_turns',
      text: 'Reached maximum number of turns (1)',
    });
  });
});

const line = (value: unknown) => JSON.stringify(value);
const synthetic = (text: string, error?: string) =>
  line({
    type: 'assistant',
    message: { model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text }] },
    parent_tool_use_id: null,
    ...(error ? { error } : {}),
  });

describe('Claude stream parser on lines not seen in the recordings', () => {
  it('recognises a subscription usage limit with its reset time, once', () => {
    const text = "You've hit your limit · resets 5pm (Europe/Berlin)";
    const events = parseAll([
      synthetic(text, 'rate_limit'),
      line({ type: 'result', subtype: 'success', is_error: true, result: text, api_error_status: 429 }),
    ]);
    expect(ofType(events, 'error')).toEqual([
      { type: 'error', kind: 'rate-limit', message: text, resetsAt: '5pm (Europe/Berlin)' },
    ]);
    expect(ofType(events, 'result')[0]?.ok).toBe(false);
  });

  it('turns a rejected rate_limit_event into a rate-limit error with an ISO reset time', () => {
    const parser = createClaudeParser();
    const rejected = line({
      type: 'rate_limit_event',
      rate_limit_info: { status: 'rejected', resetsAt: 1_800_000_000, rateLimitType: 'five_hour' },
    });
    expect(parser.parseLine(rejected)).toEqual([
      {
        type: 'error',
        kind: 'rate-limit',
        message: 'Usage limit reached (five_hour)',
        resetsAt: '2027-01-15T08:00:00.000Z',
      },
    ]);
    const allowed = { type: 'rate_limit_event', rate_limit_info: { status: 'allowed' } };
    expect(createClaudeParser().parseLine(line(allowed))).toEqual([{ type: 'unknown', raw: allowed }]);
  });

  it('classifies an error result without an HTTP status by its text', () => {
    const events = parseAll([
      line({ type: 'result', subtype: 'success', is_error: true, result: 'Credit balance is too low' }),
    ]);
    expect(ofType(events, 'error')[0]?.kind).toBe('auth');
  });

  it('does not take a subagent’s prose for the agent’s text, but shows its tool calls', () => {
    const events = parseAll([
      line({
        type: 'assistant',
        parent_tool_use_id: 'toolu_parent',
        message: {
          content: [
            { type: 'text', text: '<ralph>DONE US-001</ralph>' },
            { type: 'tool_use', id: 'toolu_sub', name: 'Read', input: { file_path: 'a.ts' } },
          ],
        },
      }),
    ]);
    expect(events).toEqual([{ type: 'tool-started', id: 'toolu_sub', name: 'Read', summary: 'a.ts' }]);
  });

  it('reads tool results given as content blocks and truncates long output', () => {
    const long = 'y'.repeat(10_000);
    const [event] = parseAll([
      line({
        type: 'user',
        message: {
          content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: long }] }],
        },
      }),
    ]);
    if (event?.type !== 'tool-finished') throw new Error(`expected tool-finished, got ${event?.type}`);
    expect(event.ok).toBe(true);
    expect(event.output?.length).toBeLessThan(5000);
    expect(event.output?.startsWith('yyyy')).toBe(true);
  });

  it('never crashes: garbage, unknown types and malformed known types', () => {
    const parser = createClaudeParser();
    expect(parser.parseLine('')).toEqual([]);
    expect(parser.parseLine('   ')).toEqual([]);
    expect(parser.parseLine('Warning: something odd')).toEqual([
      { type: 'garbage', line: 'Warning: something odd' },
    ]);
    expect(parser.parseLine('{"type":"assistant"')).toEqual([
      { type: 'garbage', line: '{"type":"assistant"' },
    ]);
    expect(parser.parseLine('[1,2]')).toEqual([{ type: 'unknown', raw: [1, 2] }]);
    expect(parser.parseLine('42')).toEqual([{ type: 'unknown', raw: 42 }]);
    const streamEvent = { type: 'stream_event', event: { type: 'content_block_delta' } };
    expect(parser.parseLine(line(streamEvent))).toEqual([{ type: 'unknown', raw: streamEvent }]);
    const future = { type: 'something_new', data: 1 };
    expect(parser.parseLine(line(future))).toEqual([{ type: 'unknown', raw: future }]);
    const badAssistant = { type: 'assistant', message: 'not an object' };
    expect(parser.parseLine(line(badAssistant))).toEqual([{ type: 'unknown', raw: badAssistant }]);
    const badResult = { type: 'result' };
    expect(parser.parseLine(line(badResult))).toEqual([{ type: 'unknown', raw: badResult }]);
    const compact = { type: 'system', subtype: 'compact_boundary' };
    expect(parser.parseLine(line(compact))).toEqual([{ type: 'unknown', raw: compact }]);
  });
});
