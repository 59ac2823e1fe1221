import { describe, expect, it } from 'vitest';
import { fixtureLines, ofType, parseLines } from '../../../test/support/fixture-lines.js';
import type { AgentEvent } from '../agent-event.js';
import { createOpencodeParser } from './opencode-parser.js';

// Recorded from the real OpenCode 1.18.33 against the scripted Chat Completions server (see the README beside them).
const parseFixture = (name: string): AgentEvent[] =>
  parseLines(createOpencodeParser(), fixtureLines('opencode', name));
const parseJson = (...values: unknown[]): AgentEvent[] =>
  parseLines(
    createOpencodeParser(),
    values.map((v) => JSON.stringify(v)),
  );

describe('OpenCode stream parser on recorded runs', () => {
  it('reads a tool-using run: session, text, tools, one usage event per step, no result line', () => {
    const events = parseFixture('tool-run');
    expect(events.map((e) => e.type)).toEqual([
      'session-started',
      'assistant-text',
      'tool-started',
      'tool-finished',
      'usage',
      'tool-started',
      'tool-finished',
      'usage',
      'assistant-text',
      'usage',
    ]);
    expect(events[0]).toEqual({ type: 'session-started', sessionId: expect.stringMatching(/^ses_/) });
    const [write, bash] = ofType(events, 'tool-started');
    expect(write).toEqual({ type: 'tool-started', id: 'call_fake_1_0', name: 'write', summary: 'hello.txt' });
    expect(bash).toMatchObject({
      id: 'call_fake_2_0',
      name: 'bash',
      summary: 'git add -A && git commit -q -m "feat: US-001 - Hello" && git log --oneline -1',
    });
    const [wrote, committed] = ofType(events, 'tool-finished');
    expect(wrote).toEqual({
      type: 'tool-finished',
      id: 'call_fake_1_0',
      ok: true,
      output: 'Wrote file successfully.',
    });
    expect(committed?.output).toMatch(/^[0-9a-f]{7} feat: US-001 - Hello\n$/);
    expect(ofType(events, 'assistant-text').map((e) => e.text)).toEqual([
      'I will create the file.',
      'Created hello.txt and committed. <ralph>DONE US-001</ralph>',
    ]);
    // Each step reports its own tokens and cost; summed they are the run's.
    const usage = ofType(events, 'usage');
    expect(usage.at(-1)).toEqual({
      type: 'usage',
      inputTokens: 1200,
      outputTokens: 80,
      cacheReadTokens: 400,
      cacheWriteTokens: 0,
      costUsd: 0,
    });
    expect(usage.reduce((sum, u) => sum + u.inputTokens, 0)).toBe(3600);
    // A step that finishes with reason "stop" is not the end of the run: no result is made up.
    expect(ofType(events, 'result')).toEqual([]);
  });

  it('reports a tool error as a failed tool with its message', () => {
    const events = parseFixture('multi-tool');
    const finished = ofType(events, 'tool-finished');
    expect(finished.map((e) => e.ok)).toEqual([true, true, false]);
    expect(finished[2]?.output).toMatch(/^File not found: .*missing-file\.txt$/);
    expect(ofType(events, 'tool-started').map((e) => e.summary)).toEqual([
      'echo first',
      'echo second; exit 3',
      'missing-file.txt',
    ]);
    expect(ofType(events, 'assistant-text').at(-1)?.text).toBe(
      'One command failed. <ralph>FAIL US-002: exit 3</ralph>',
    );
  });

  it.each([
    ['rate-limit-429', 'rate-limit', 'Rate limit reached for requests'],
    ['server-error-500', 'api', 'The server had an error'],
  ])('%s: the session, then one error event of kind %s', (name, kind, message) => {
    const events = parseFixture(name);
    expect(events).toEqual([
      { type: 'session-started', sessionId: expect.stringMatching(/^ses_/) },
      { type: 'error', kind, message },
    ]);
  });
});

describe('OpenCode stream parser on hand-made lines (shapes from `opencode run --format json`)', () => {
  it('skips reasoning and synthetic text: neither is the agent speaking', () => {
    const events = parseJson(
      { type: 'reasoning', sessionID: 's', part: { type: 'reasoning', text: '<ralph>DONE US-001</ralph>' } },
      {
        type: 'text',
        sessionID: 's',
        part: { type: 'text', text: '<ralph>DONE US-001</ralph>', synthetic: true },
      },
    );
    expect(events).toEqual([{ type: 'session-started', sessionId: 's' }]);
  });

  it('classifies by words before status: a 403 that says usage limit is a rate limit', () => {
    const line = {
      type: 'error',
      sessionID: 's',
      error: { name: 'APIError', data: { message: "You've hit your usage limit", statusCode: 403 } },
    };
    expect(parseJson(line).at(-1)).toEqual({
      type: 'error',
      kind: 'rate-limit',
      message: "You've hit your usage limit",
    });
    const auth = {
      type: 'error',
      error: { name: 'ProviderAuthError', data: { message: 'Bad key', statusCode: 401 } },
    };
    expect(parseJson(auth)).toEqual([{ type: 'error', kind: 'auth', message: 'Bad key' }]);
  });

  it('adds reasoning tokens to output tokens', () => {
    const events = parseJson({
      type: 'step_finish',
      part: {
        reason: 'stop',
        cost: 0.01,
        tokens: { input: 10, output: 5, reasoning: 7, cache: { read: 3, write: 1 } },
      },
    });
    expect(events).toEqual([
      {
        type: 'usage',
        inputTokens: 10,
        outputTokens: 12,
        cacheReadTokens: 3,
        cacheWriteTokens: 1,
        costUsd: 0.01,
      },
    ]);
  });

  it('keeps unknown lines, and non-JSON as garbage', () => {
    const odd = { type: 'snapshot', sessionID: 's' };
    expect(parseJson(odd)).toEqual([
      { type: 'session-started', sessionId: 's' },
      { type: 'unknown', raw: odd },
    ]);
    expect(createOpencodeParser().parseLine('INFO booting')).toEqual([
      { type: 'garbage', line: 'INFO booting' },
    ]);
  });
});
