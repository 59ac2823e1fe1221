import { describe, expect, it } from 'vitest';
import { fixtureLines, ofType, parseLines } from '../../../test/support/fixture-lines.js';
import type { AgentEvent } from '../agent-event.js';
import { createCodexParser } from './codex-parser.js';
import { shellWords, unwrapShell } from './shell-words.js';

// Recorded from the real Codex 0.169.0 against the scripted Responses server (see the README beside them).
const parseFixture = (name: string): AgentEvent[] =>
  parseLines(createCodexParser(), fixtureLines('codex', name));
const parseJson = (...values: unknown[]): AgentEvent[] =>
  parseLines(
    createCodexParser(),
    values.map((v) => JSON.stringify(v)),
  );

describe('Codex stream parser on recorded runs', () => {
  it('reads a tool-using run: session, text, shell commands, usage and a successful end', () => {
    const events = parseFixture('tool-run');
    expect(events.map((e) => e.type)).toEqual([
      'session-started',
      'unknown', // the "model metadata not found" warning item: not an error
      'assistant-text',
      'tool-started',
      'tool-finished',
      'tool-started',
      'tool-finished',
      'assistant-text',
      'usage',
      'result',
    ]);
    expect(ofType(events, 'session-started')[0]?.sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const [write, commit] = ofType(events, 'tool-started');
    expect(write).toMatchObject({ id: 'item_2', name: 'shell' });
    expect(write?.summary).toBe(`mkdir -p "$(dirname 'hello.txt')" && printf '%s' 'hi ' > 'hello.txt'`);
    expect(commit).toMatchObject({
      id: 'item_3',
      name: 'shell',
      summary: 'git add -A && git commit -q -m "feat: US-001 - Hello" && git log --oneline -1',
    });
    const [wrote, committed] = ofType(events, 'tool-finished');
    expect(wrote).toMatchObject({ id: 'item_2', ok: true });
    expect(committed).toMatchObject({ id: 'item_3', ok: true });
    expect(committed?.output).toMatch(/^[0-9a-f]{7} feat: US-001 - Hello\n$/);

    expect(ofType(events, 'assistant-text').map((e) => e.text)).toEqual([
      'I will create the file.',
      'Created hello.txt and committed. <ralph>DONE US-001</ralph>',
    ]);
    // Codex reports tokens only: no cost.
    expect(ofType(events, 'usage')).toEqual([
      { type: 'usage', inputTokens: 3600, outputTokens: 240, cacheReadTokens: 0 },
    ]);
    expect(ofType(events, 'result')).toEqual([{ type: 'result', ok: true, subtype: 'turn.completed' }]);
  });

  it('reports a command that exits non-zero as a failed tool', () => {
    const events = parseFixture('multi-tool');
    const finished = ofType(events, 'tool-finished');
    expect(finished).toEqual([
      { type: 'tool-finished', id: 'item_2', ok: true, output: 'first\n' },
      { type: 'tool-finished', id: 'item_3', ok: false, output: 'second\n' },
    ]);
    expect(ofType(events, 'tool-started').map((e) => e.summary)).toEqual([
      'echo first',
      'echo second; exit 3',
    ]);
    expect(ofType(events, 'assistant-text').at(-1)?.text).toContain('<ralph>FAIL US-002: exit 3</ralph>');
    expect(events.at(-1)).toMatchObject({ type: 'result', ok: true });
  });

  it.each([
    ['rate-limit-429', 'rate-limit', 'exceeded retry limit, last status: 429 Too Many Requests'],
    ['usage-limit', 'rate-limit', 'You’ve hit your usage limit. Try again later.'],
    [
      'server-error-500',
      'overloaded',
      'We’re currently experiencing high demand, which may cause temporary errors.',
    ],
  ])('%s: one error event of kind %s, then a failed result', (name, kind, message) => {
    const events = parseFixture(name);
    expect(ofType(events, 'error')).toEqual([{ type: 'error', kind, message }]);
    expect(events.at(-1)).toEqual({ type: 'result', ok: false, subtype: 'turn.failed', text: message });
    expect(ofType(events, 'assistant-text')).toEqual([]);
  });
});

describe('Codex stream parser on hand-made lines (shapes from the Codex exec event types)', () => {
  it('never reads reasoning or the prompt as assistant text', () => {
    const events = parseJson(
      { type: 'item.completed', item: { id: 'r', type: 'reasoning', text: '<ralph>DONE US-001</ralph>' } },
      { type: 'item.completed', item: { id: 't', type: 'todo_list', items: [] } },
    );
    expect(events).toEqual([]);
  });

  it('announces a tool seen only on completion, and finishes each tool once', () => {
    const item = {
      id: 'f',
      type: 'file_change',
      changes: [{ path: 'a.ts', kind: 'add' }],
      status: 'completed',
    };
    const events = parseJson({ type: 'item.completed', item }, { type: 'item.completed', item });
    expect(events).toEqual([
      { type: 'tool-started', id: 'f', name: 'file_change', summary: 'add a.ts' },
      { type: 'tool-finished', id: 'f', ok: true },
    ]);
  });

  it('reads MCP calls and web searches', () => {
    const events = parseJson(
      {
        type: 'item.started',
        item: {
          id: 'm',
          type: 'mcp_tool_call',
          server: 'docs',
          tool: 'search',
          arguments: { query: 'zod' },
          status: 'in_progress',
        },
      },
      {
        type: 'item.completed',
        item: {
          id: 'm',
          type: 'mcp_tool_call',
          server: 'docs',
          tool: 'search',
          error: { message: 'boom' },
          status: 'failed',
        },
      },
      { type: 'item.completed', item: { id: 'w', type: 'web_search', query: 'vitest' } },
    );
    expect(events).toEqual([
      { type: 'tool-started', id: 'm', name: 'docs.search', summary: 'zod' },
      { type: 'tool-finished', id: 'm', ok: false, output: 'boom' },
      { type: 'tool-started', id: 'w', name: 'web_search', summary: 'vitest' },
      { type: 'tool-finished', id: 'w', ok: true },
    ]);
  });

  it('turns retry notices into retries, not errors; unknown lines stay unknown, non-JSON is garbage', () => {
    const retry = { type: 'error', message: 'Reconnecting... 2/5 (stream disconnected before completion)' };
    const uncounted = { type: 'error', message: 'Reconnecting...' };
    const odd = { type: 'thread.renamed', name: 'x' };
    expect(parseJson(retry, uncounted, odd)).toEqual([
      { type: 'retry', attempt: 2, maxRetries: 5, reason: 'stream disconnected before completion' },
      { type: 'unknown', raw: uncounted },
      { type: 'unknown', raw: odd },
    ]);
    expect(createCodexParser().parseLine('Reading additional input from stdin...')).toEqual([
      { type: 'garbage', line: 'Reading additional input from stdin...' },
    ]);
    expect(createCodexParser().parseLine('  ')).toEqual([]);
  });

  it('subtracts cached tokens from input tokens', () => {
    const events = parseJson({
      type: 'turn.completed',
      usage: { input_tokens: 1000, cached_input_tokens: 600, output_tokens: 50 },
    });
    expect(events[0]).toEqual({ type: 'usage', inputTokens: 400, outputTokens: 50, cacheReadTokens: 600 });
  });
});

describe('shell words', () => {
  it('splits quoted words as a POSIX shell does', () => {
    expect(shellWords(`a 'b c' "d \\"e\\"" f\\ g`)).toEqual(['a', 'b c', 'd "e"', 'f g']);
    expect(shellWords(`'open`)).toBeUndefined();
  });

  it('unwraps bash -lc but leaves other commands alone', () => {
    expect(unwrapShell(`/bin/bash -lc 'echo hi'`)).toBe('echo hi');
    expect(unwrapShell(`bash -c 'echo '"'"'quoted'"'"''`)).toBe(`echo 'quoted'`);
    expect(unwrapShell('git status')).toBe('git status');
    expect(unwrapShell(`python -c 'print(1)'`)).toBe(`python -c 'print(1)'`);
  });
});
