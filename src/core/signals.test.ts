import { describe, expect, it } from 'vitest';
import { parseSignals } from '../../test/support/agent-text.js';
import { interpretSignals, maskCode } from './signals.js';

const fence = '```';

describe('parseSignals', () => {
  it('reads DONE, FAIL, LEARN and both completion forms', () => {
    const s = parseSignals(
      [
        'Implemented it.',
        '<ralph>LEARN: use the sql template for aggregations</ralph>',
        '<ralph>DONE US-001</ralph>',
        '<ralph>FAIL US-002: the schema is missing</ralph>',
        '<ralph-complete/>',
      ].join('\n'),
    );
    expect(s.done).toEqual(['US-001']);
    expect(s.fail).toEqual([{ id: 'US-002', reason: 'the schema is missing' }]);
    expect(s.learn).toEqual(['use the sql template for aggregations']);
    expect(s.complete).toBe(true);
    expect(s.legacyDone).toBe(false);
    expect(s.outcomes.map((o) => o.kind)).toEqual(['done', 'fail']);
    expect(parseSignals('all set <promise>COMPLETE</promise>').complete).toBe(true);
    expect(parseSignals('nothing here').complete).toBe(false);
  });

  it('reads ASK with its id and its question, the last decisive signal winning', () => {
    const s = parseSignals(
      'Need a decision.\n<ralph>ASK US-002: PostgreSQL or SQLite?\nBoth are installed.</ralph>',
    );
    expect(s.ask).toEqual([{ id: 'US-002', question: 'PostgreSQL or SQLite?\nBoth are installed.' }]);
    expect(interpretSignals(s, 'US-002')).toEqual({
      kind: 'ask',
      question: 'PostgreSQL or SQLite?\nBoth are installed.',
    });
    // The story's agent asks, whatever id it wrote; a DONE after it wins, a quoted ASK is no question.
    expect(interpretSignals(parseSignals('<ralph>ASK: which port?</ralph>'), 'US-002')).toEqual({
      kind: 'ask',
      question: 'which port?',
    });
    expect(
      interpretSignals(parseSignals('<ralph>ASK US-2: x?</ralph> <ralph>DONE US-2</ralph>'), 'US-2').kind,
    ).toBe('done');
    expect(parseSignals('`<ralph>ASK US-1: x?</ralph>`').ask).toEqual([]);
    expect(parseSignals('<ralph>ASK US-1</ralph>').ask).toEqual([]);
  });

  it('accepts FAIL without a reason, without an id, and with a multi-line reason', () => {
    expect(parseSignals('<ralph>FAIL 8.3</ralph>').fail).toEqual([{ id: '8.3', reason: '' }]);
    expect(parseSignals('<ralph>FAIL: cannot build</ralph>').fail).toEqual([
      { id: '', reason: 'cannot build' },
    ]);
    expect(parseSignals('<ralph>FAIL 8.3: line one\nline two</ralph>').fail).toEqual([
      { id: '8.3', reason: 'line one\nline two' },
    ]);
  });

  it('tolerates spacing and keyword case', () => {
    const s = parseSignals('<ralph> done  US-9 </ralph> <ralph>Learn:x</ralph> <ralph>DONE: US-10</ralph>');
    expect(s.done).toEqual(['US-9', 'US-10']);
    expect(s.learn).toEqual(['x']);
  });

  it('ignores unknown and empty tags', () => {
    const s = parseSignals('<ralph>MAYBE US-1</ralph> <ralph>LEARN:   </ralph> <ralph></ralph>');
    expect(s.done).toEqual([]);
    expect(s.learn).toEqual([]);
    expect(s.outcomes).toEqual([]);
  });

  it('keeps inline code inside a LEARN insight', () => {
    expect(parseSignals('<ralph>LEARN: run `npm ci` before tests</ralph>').learn).toEqual([
      'run `npm ci` before tests',
    ]);
  });

  it('is not fooled by an unclosed opening tag before a real signal', () => {
    expect(parseSignals('The <ralph> tag wraps signals.\n<ralph>DONE US-1</ralph>').done).toEqual(['US-1']);
  });

  it('ignores signals in fenced blocks, tilde fences and inline code', () => {
    const text = [
      'The protocol is:',
      fence,
      '<ralph>DONE US-1</ralph>',
      '<ralph-complete/>',
      fence,
      '~~~text',
      '<ralph>FAIL US-1: quoted</ralph>',
      '~~~',
      'Emit `<ralph>LEARN: quoted</ralph>` or ``<ralph>DONE US-2</ralph> with ` inside``.',
      '`<promise>COMPLETE</promise>`',
    ].join('\n');
    const s = parseSignals(text);
    expect(s.done).toEqual([]);
    expect(s.fail).toEqual([]);
    expect(s.learn).toEqual([]);
    expect(s.complete).toBe(false);
  });

  it('treats an unclosed fence as running to the end of the block', () => {
    expect(parseSignals(`${fence}sh\n<ralph>DONE US-1</ralph>`).done).toEqual([]);
  });

  it('closes a fence only with a fence of the same character at least as long', () => {
    const text = [
      '````md',
      fence,
      '<ralph>DONE US-1</ralph>',
      '~~~~',
      '````',
      '<ralph>DONE US-2</ralph>',
    ].join('\n');
    expect(parseSignals(text).done).toEqual(['US-2']);
  });

  it('reads a line with ```code``` as inline code, not a fence opener', () => {
    expect(parseSignals(`run ${fence}make${fence} then\n<ralph>DONE US-1</ralph>`).done).toEqual(['US-1']);
  });

  it('does not let a stray backtick hide later lines', () => {
    expect(parseSignals("Don't forget the ` char\n<ralph>DONE US-1</ralph>").done).toEqual(['US-1']);
  });

  it('reads text blocks separately: a fence left open in one block does not swallow the next', () => {
    const s = parseSignals([
      `${fence}\n<ralph>DONE X</ralph>`,
      '<ralph>DONE US-1</ralph>',
      '<ralph>FAIL US-1: no</ralph>',
    ]);
    expect(s.done).toEqual(['US-1']);
    const positions = s.outcomes.map((o) => o.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(positions[0]).toBeGreaterThan(0);
  });

  describe('legacy [DONE] / [FAIL]', () => {
    it('count at the start or end of a line', () => {
      expect(parseSignals('[DONE] Story 8.3 implemented').legacyDone).toBe(true);
      expect(parseSignals('All tests pass.  [DONE]  ').legacyDone).toBe(true);
      const fail = parseSignals('  [FAIL] migrations do not apply');
      expect(fail.legacyFail).toBe(true);
      expect(fail.outcomes).toEqual([
        { kind: 'legacy-fail', reason: 'migrations do not apply', position: 0 },
      ]);
    });

    it('do not count mid-sentence', () => {
      const s = parseSignals('I will mark it [DONE] later, not [FAIL] now.');
      expect(s.legacyDone).toBe(false);
      expect(s.legacyFail).toBe(false);
      expect(s.outcomes).toEqual([]);
    });

    it('do not count inside code', () => {
      expect(parseSignals(`${fence}\n[DONE]\n${fence}\n\`[FAIL]\``).outcomes).toEqual([]);
    });

    it('do not count when any <ralph> tag is present, even only LEARN', () => {
      const s = parseSignals('[DONE]\n<ralph>LEARN: something</ralph>');
      expect(s.legacyDone).toBe(false);
      expect(s.outcomes).toEqual([]);
      expect(parseSignals('[FAIL] x\n<ralph>DONE US-1</ralph>').outcomes.map((o) => o.kind)).toEqual([
        'done',
      ]);
    });

    it('but a quoted <ralph> tag does not suppress them', () => {
      expect(parseSignals('`<ralph>DONE US-1</ralph>`\n[DONE]').legacyDone).toBe(true);
    });
  });
});

describe('maskCode', () => {
  it('keeps length and line breaks', () => {
    const text = `a \`b\` c\n${fence}\nx\n${fence}\nd`;
    const masked = maskCode(text);
    expect(masked.length).toBe(text.length);
    expect(masked.split('\n').length).toBe(text.split('\n').length);
    expect(masked).toBe('a     c\n   \n \n   \nd');
  });
});

describe('interpretSignals', () => {
  const interpret = (text: string, id = 'US-001') => interpretSignals(parseSignals(text), id);

  it('done for the expected story', () => {
    expect(interpret('<ralph>DONE US-001</ralph>')).toEqual({ kind: 'done' });
  });

  it('compares ids trimmed and case-insensitively', () => {
    expect(interpret('<ralph>DONE us-001</ralph>')).toEqual({ kind: 'done' });
  });

  it('done for another story', () => {
    expect(interpret('<ralph>DONE US-002</ralph>')).toEqual({ kind: 'done-wrong-id', id: 'US-002' });
    expect(interpret('<ralph>DONE</ralph>')).toEqual({ kind: 'done-wrong-id', id: '' });
  });

  it('a DONE for the right story outweighs one for another, in either order', () => {
    expect(interpret('<ralph>DONE US-002</ralph><ralph>DONE US-001</ralph>')).toEqual({ kind: 'done' });
    expect(interpret('<ralph>DONE US-001</ralph><ralph>DONE US-002</ralph>')).toEqual({ kind: 'done' });
  });

  it('fail with its reason', () => {
    expect(interpret('<ralph>FAIL US-001: no db</ralph>')).toEqual({ kind: 'fail', reason: 'no db' });
  });

  it('fail reported under another id still fails, and says so', () => {
    expect(interpret('<ralph>FAIL US-009: no db</ralph>')).toEqual({
      kind: 'fail',
      reason: 'no db (reported for US-009)',
    });
  });

  it('the last of DONE and FAIL wins', () => {
    expect(interpret('<ralph>FAIL US-001: tests red</ralph> fixed it <ralph>DONE US-001</ralph>')).toEqual({
      kind: 'done',
    });
    expect(interpret('<ralph>DONE US-001</ralph> oh no <ralph>FAIL US-001: broke</ralph>')).toEqual({
      kind: 'fail',
      reason: 'broke',
    });
  });

  it('a FAIL outweighs a DONE for another story', () => {
    expect(interpret('<ralph>FAIL US-001: x</ralph><ralph>DONE US-002</ralph>')).toEqual({
      kind: 'fail',
      reason: 'x',
    });
  });

  it('legacy markers decide when they count', () => {
    expect(interpret('[DONE]')).toEqual({ kind: 'done' });
    expect(interpret('[DONE]\n[FAIL] flaky')).toEqual({ kind: 'fail', reason: 'flaky' });
  });

  it('none when nothing decisive was said', () => {
    expect(interpret('I worked on it. <ralph>LEARN: x</ralph>')).toEqual({ kind: 'none' });
    expect(interpret('')).toEqual({ kind: 'none' });
  });
});
