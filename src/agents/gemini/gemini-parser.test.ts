import { describe, expect, it } from 'vitest';
import { fixtureLines, ofType, parseLines } from '../../../test/support/fixture-lines.js';
import type { AgentEvent } from '../agent-event.js';
import { createGeminiParser } from './gemini-parser.js';

// Recorded from the real Gemini CLI 0.61.0 against the scripted Gemini server (see the README beside them).
const parseFixture = (name: string): AgentEvent[] =>
  parseLines(createGeminiParser(), fixtureLines('gemini', name));
const parseJson = (...values: unknown[]): AgentEvent[] =>
  parseLines(
    createGeminiParser(),
    values.map((v) => JSON.stringify(v)),
  );

describe('Gemini stream parser on recorded runs', () => {
  it('reads a tool-using run: session, joined text, tools, usage and result', () => {
    const events = parseFixture('tool-run');
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
    expect(session).toEqual({
      type: 'session-started',
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      model: 'auto',
    });
    // Each answer arrived as two delta lines; each is one text, so a tag cut in two still reads whole.
    expect(ofType(events, 'assistant-text').map((e) => e.text)).toEqual([
      'I will create the file.',
      'Created hello.txt and committed. <ralph>DONE US-001</ralph>',
    ]);
    const [write, commit] = ofType(events, 'tool-started');
    expect(write).toMatchObject({ name: 'write_file', summary: 'hello.txt' });
    expect(commit).toMatchObject({
      name: 'run_shell_command',
      summary: 'git add -A && git commit -q -m "feat: US-001 - Hello" && git log --oneline -1',
    });
    const [wrote, committed] = ofType(events, 'tool-finished');
    expect(wrote).toEqual({ type: 'tool-finished', id: write?.id, ok: true });
    expect(committed).toMatchObject({ id: commit?.id, ok: true });
    expect(committed?.output).toMatch(/^[0-9a-f]{7} feat: US-001 - Hello$/);
    // Gemini reports tokens (side calls included) but no cost.
    expect(ofType(events, 'usage')).toEqual([
      { type: 'usage', inputTokens: 4800, outputTokens: 320, cacheReadTokens: 0 },
    ]);
    expect(events.at(-1)).toEqual({
      type: 'result',
      ok: true,
      subtype: 'success',
      durationMs: expect.any(Number),
    });
  });

  it('joins a signal cut between two deltas, and reports a failed tool', () => {
    const events = parseFixture('multi-tool');
    expect(ofType(events, 'assistant-text').map((e) => e.text)).toEqual([
      'One command failed. <ralph>FAIL US-002: exit 3</ralph>',
    ]);
    const finished = ofType(events, 'tool-finished');
    expect(finished.map((e) => e.ok)).toEqual([true, true, false]);
    expect(finished[2]?.output).toBe('File not found.');
    expect(ofType(events, 'tool-started').map((e) => e.summary)).toEqual([
      'echo first',
      'echo second; exit 3',
      'missing-file.txt',
    ]);
  });

  it.each([
    ['rate-limit-429', 'rate-limit', /Resource has been exhausted/],
    ['server-error-500', 'api', /Internal error encountered/],
  ])('%s: an error event of kind %s and a failed result', (name, kind, text) => {
    const events = parseFixture(name);
    const errors = ofType(events, 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.kind).toBe(kind);
    expect(errors[0]?.message).toMatch(text);
    expect(events.at(-1)).toMatchObject({
      type: 'result',
      ok: false,
      subtype: 'error',
      text: expect.stringMatching(text),
    });
    expect(ofType(events, 'assistant-text')).toEqual([]);
  });
});

describe('Gemini stream parser on hand-made lines (shapes from the Gemini CLI stream-json docs)', () => {
  it('never reads the echoed prompt as assistant text', () => {
    expect(parseJson({ type: 'message', role: 'user', content: '<ralph>DONE US-001</ralph>' })).toEqual([]);
  });

  it('emits a complete (non-delta) message at once, after any pending deltas', () => {
    const events = parseJson(
      { type: 'message', role: 'assistant', content: 'part one, ', delta: true },
      { type: 'message', role: 'assistant', content: 'whole message' },
    );
    expect(events).toEqual([{ type: 'assistant-text', text: 'part one, whole message' }]);
  });

  it('treats error lines by severity: warnings are not failures', () => {
    const warning = { type: 'error', severity: 'warning', message: 'Loop detected, stopping execution' };
    const events = parseJson(warning, {
      type: 'error',
      severity: 'error',
      message: 'Quota exceeded for quota metric',
    });
    expect(events).toEqual([
      { type: 'unknown', raw: warning },
      { type: 'error', kind: 'rate-limit', message: 'Quota exceeded for quota metric' },
    ]);
  });

  it('reports one failure once when the error line and the result repeat it', () => {
    const message = 'API Error: 503 The model is overloaded.';
    const events = parseJson(
      { type: 'error', severity: 'error', message },
      { type: 'result', status: 'error', error: { type: 'api', message } },
    );
    expect(ofType(events, 'error')).toEqual([{ type: 'error', kind: 'overloaded', message }]);
    expect(events.at(-1)).toMatchObject({ type: 'result', ok: false });
  });

  it('keeps unknown lines, and non-JSON as garbage', () => {
    const odd = { type: 'thought', content: 'hmm' };
    expect(parseJson(odd)).toEqual([{ type: 'unknown', raw: odd }]);
    expect(createGeminiParser().parseLine('Loaded cached credentials.')).toEqual([
      { type: 'garbage', line: 'Loaded cached credentials.' },
    ]);
  });
});
