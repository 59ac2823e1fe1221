import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureLines, ofType, parseLines } from '../../../test/support/fixture-lines.js';
import type { AgentEvent } from '../agent-event.js';
import { createAmpParser } from './amp-parser.js';

// Hand-made in the shape Amp documents for `amp -x --stream-json`: Amp cannot run offline (see the README beside them).
const parseFixture = (name: string): AgentEvent[] => parseLines(createAmpParser(), fixtureLines('amp', name));

describe('Amp stream parser on hand-made fixtures (documented shapes)', () => {
  it('reads a tool-using run: session, text, tools, per-message usage and result', () => {
    const events = parseFixture('tool-run');
    expect(events.map((e) => e.type)).toEqual([
      'session-started',
      'assistant-text',
      'tool-started',
      'usage',
      'tool-finished',
      'tool-started',
      'usage',
      'tool-finished',
      'assistant-text',
      'usage',
      'result',
    ]);
    expect(events[0]).toEqual({
      type: 'session-started',
      sessionId: 'T-7f3c2a9e-1b4d-4c8e-9a0f-2d6b5e8c1a3f',
    });
    expect(ofType(events, 'tool-started').map((e) => [e.name, e.summary])).toEqual([
      ['create_file', '/home/dev/project/hello.txt'],
      ['Bash', 'git add -A && git commit -q -m "feat: US-001 - Hello" && git log --oneline -1'],
    ]);
    expect(ofType(events, 'tool-finished').every((e) => e.ok)).toBe(true);
    // The prompt echo (a user text line) is not assistant text.
    expect(ofType(events, 'assistant-text').map((e) => e.text)).toEqual([
      'I will create the file.',
      'Created hello.txt and committed. <ralph>DONE US-001</ralph>',
    ]);
    const usage = ofType(events, 'usage');
    expect(usage[0]).toEqual({
      type: 'usage',
      inputTokens: 2100,
      outputTokens: 60,
      cacheReadTokens: 0,
      cacheWriteTokens: 1800,
    });
    expect(usage.reduce((sum, u) => sum + u.outputTokens, 0)).toBe(135);
    expect(events.at(-1)).toEqual({
      type: 'result',
      ok: true,
      subtype: 'success',
      text: 'Created hello.txt and committed. <ralph>DONE US-001</ralph>',
      durationMs: 9120,
      numTurns: 3,
      sessionId: 'T-7f3c2a9e-1b4d-4c8e-9a0f-2d6b5e8c1a3f',
    });
  });

  it('turns a failed result into an error event of the right kind', () => {
    const events = parseFixture('error');
    expect(ofType(events, 'error')).toEqual([
      {
        type: 'error',
        kind: 'rate-limit',
        message: '429 Too Many Requests: rate limit exceeded, try again later',
      },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'result', ok: false, subtype: 'error_during_execution' });
  });

  it('counts the result usage only when no message carried any', () => {
    const parser = createAmpParser();
    const events = parser.parseLine(
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        result: 'ok',
        usage: { input_tokens: 5, output_tokens: 2 },
      }),
    );
    expect(events[0]).toEqual({ type: 'usage', inputTokens: 5, outputTokens: 2 });
    expect(parser.parseLine('not json')).toEqual([{ type: 'garbage', line: 'not json' }]);
    expect(parser.parseLine('{"type":"summary"}')).toEqual([{ type: 'unknown', raw: { type: 'summary' } }]);
  });
});

// Whole lines of a real `amp -x --stream-json` run, recorded by empathic/toolpath (see the README beside them).
const recorded = readFileSync(
  new URL('../../../test/fixtures/peers/empathic-toolpath/amp-stream-lines.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line !== '');

describe('Amp stream parser on recorded lines', () => {
  const events = parseLines(createAmpParser(), recorded);
  const finished = ofType(events, 'tool-finished');
  const byId = (id: string) => finished.find((e) => e.id === id);

  it('shows a shell command that exited non-zero as failed, though Amp says is_error: false', () => {
    const failed = byId('TU-033wt8ohXapDIiGHiONt0i');
    expect(failed?.ok).toBe(false);
    expect(failed?.output).toContain('cat: does-not-exist.txt: No such file or directory');
    expect(failed?.output).toContain('exit code 1');
  });

  it('keeps successful commands and other tools as succeeded, with the command output readable', () => {
    expect(byId('TU-033wt94640XN3c8gU8pEAs')).toMatchObject({ ok: true, output: '1\n2\n3\n4\n5\n' });
    expect(byId('TU-033wt8G1QDArN7WUNr9hLV')?.ok).toBe(true);
    expect(byId('TU-033wt8uE5ELfpjmBjc9XI3')?.ok).toBe(true);
    expect(byId('TU-033wt98qSBqjaZRnRiogZ2')).toMatchObject({
      ok: true,
      output: '`notes.md` contains **11 words**.',
    });
    expect(finished.filter((e) => !e.ok)).toHaveLength(1);
  });

  it('reads the shell commands as tool calls and the run as a success', () => {
    expect(ofType(events, 'tool-started').map((e) => [e.name, e.summary])).toEqual([
      ['shell_command', 'cat notes.md'],
      ['shell_command', 'cat does-not-exist.txt'],
      ['apply_patch', expect.any(String)],
      ['shell_command', 'bash count.sh'],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'result', ok: true, numTurns: 12 });
  });
});
