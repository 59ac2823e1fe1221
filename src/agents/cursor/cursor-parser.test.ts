import { describe, expect, it } from 'vitest';
import { fixtureLines, ofType, parseLines } from '../../../test/support/fixture-lines.js';
import type { AgentEvent } from '../agent-event.js';
import { createCursorParser } from './cursor-parser.js';

// Hand-made in the shape Cursor documents for `cursor-agent -p --output-format stream-json` (see the README beside them).
const parseFixture = (name: string): AgentEvent[] =>
  parseLines(createCursorParser(), fixtureLines('cursor', name));
const parseJson = (...values: unknown[]): AgentEvent[] =>
  parseLines(
    createCursorParser(),
    values.map((v) => JSON.stringify(v)),
  );

describe('Cursor stream parser on hand-made fixtures (documented shapes)', () => {
  it('reads a run: session, messages, tool calls started and completed, result', () => {
    const events = parseFixture('tool-run');
    expect(events.map((e) => e.type)).toEqual([
      'session-started',
      'assistant-text',
      'tool-started',
      'tool-finished',
      'tool-started',
      'tool-finished',
      'tool-started',
      'tool-finished',
      'assistant-text',
      'result',
    ]);
    expect(events[0]).toEqual({
      type: 'session-started',
      sessionId: 'c6b62c6f-7ead-4fd6-9922-e952131177ff',
      model: 'Claude 4 Sonnet',
    });
    expect(ofType(events, 'tool-started').map((e) => [e.id, e.name, e.summary])).toEqual([
      ['toolu_vrtx_01', 'write', 'hello.txt'],
      [
        'toolu_vrtx_02',
        'shell',
        'git add -A && git commit -q -m "feat: US-001 - Hello" && git log --oneline -1',
      ],
      ['toolu_vrtx_03', 'shell', 'npm test'],
    ]);
    expect(ofType(events, 'tool-finished')).toEqual([
      { type: 'tool-finished', id: 'toolu_vrtx_01', ok: true },
      { type: 'tool-finished', id: 'toolu_vrtx_02', ok: true, output: '8c1d2e3 feat: US-001 - Hello\n' },
      { type: 'tool-finished', id: 'toolu_vrtx_03', ok: false, output: 'npm error Missing script: "test"\n' },
    ]);
    // The prompt echo is not assistant text, nor is the result's joined copy of the messages.
    expect(ofType(events, 'assistant-text').map((e) => e.text)).toEqual([
      'I will create the file.',
      'Created hello.txt and committed. There is no test script. <ralph>DONE US-001</ralph>',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'result', ok: true, subtype: 'success', durationMs: 11890 });
  });

  it('reads custom tools in the function form, and tool kinds it does not know', () => {
    const events = parseJson(
      {
        type: 'tool_call',
        subtype: 'started',
        call_id: 'a',
        tool_call: { function: { name: 'docs_search', arguments: '{"query":"zod"}' } },
      },
      {
        type: 'tool_call',
        subtype: 'completed',
        call_id: 'b',
        tool_call: {
          grepToolCall: { args: { pattern: 'TODO' }, result: { error: { errorMessage: 'bad pattern' } } },
        },
      },
    );
    expect(events).toEqual([
      { type: 'tool-started', id: 'a', name: 'docs_search', summary: '{"query":"zod"}' },
      { type: 'tool-finished', id: 'b', ok: false, output: 'bad pattern' },
    ]);
  });

  it('reports an error result and usage when present; keeps unknown lines', () => {
    const events = parseJson(
      { type: 'thinking', subtype: 'delta', text: '<ralph>DONE US-001</ralph>' },
      {
        type: 'result',
        subtype: 'error',
        is_error: true,
        result: 'Rate limit exceeded',
        usage: { inputTokens: 7, outputTokens: 3 },
      },
      { type: 'interaction_query', subtype: 'request' },
    );
    expect(events).toEqual([
      { type: 'error', kind: 'rate-limit', message: 'Rate limit exceeded' },
      { type: 'usage', inputTokens: 7, outputTokens: 3 },
      { type: 'result', ok: false, subtype: 'error', text: 'Rate limit exceeded' },
      { type: 'unknown', raw: { type: 'interaction_query', subtype: 'request' } },
    ]);
  });
});
