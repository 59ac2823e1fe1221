/**
 * The signal scanner against the parser it replaced, kept here verbatim as the
 * reference: on any text (quoted tags, fences of every kind, stray backticks,
 * CRLF, legacy markers) both must find the same signals at the same positions,
 * and mask the same code. RALPH_PROPERTY_RUNS raises the number of cases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSignals } from '../../test/support/agent-text.js';
import { maskCode } from './mask-code.js';
import { type FailSignal, type OutcomeSignal, SignalScanner, type Signals } from './signals.js';

const RUNS = Number(process.env.RALPH_PROPERTY_RUNS ?? 3000);

// Pieces that make up the protocol and everything that can hide or fake it.
const TOKENS = [
  '<ralph>',
  '</ralph>',
  '<RALPH>',
  '</Ralph>',
  '<ralph',
  '<ralph-complete/>',
  '<ralph-complete />',
  '<promise>',
  '</promise>',
  'COMPLETE',
  '<promise>COMPLETE</promise>',
  '[DONE]',
  '[FAIL]',
  '[done]',
  '[Fail]',
  'DONE',
  'FAIL',
  'LEARN',
  'done',
  ':',
  ' US-1',
  'US-2',
  '8.3',
  '`',
  '``',
  '```',
  '````',
  '~~~',
  '~~~~',
  '~',
  'json',
  'xml',
  ' ',
  '  ',
  '\t',
  '\n',
  '\n',
  '\r',
  '\r\n',
  '\u2028',
  'a',
  'word',
  'İ',
];
// Lines of tokens, and fence lines of every shape, so fences open and close often.
const tokenLine = fc.array(fc.constantFrom(...TOKENS), { maxLength: 12 }).map((parts) => parts.join(''));
const fenceLine = fc
  .tuple(
    fc.constantFrom('', ' ', '  ', '\t'),
    fc.constantFrom('```', '````', '~~~', '~~~~', '``', '`````'),
    fc.constantFrom('', 'json', ' xml', ' ', '\t', '`x`', 'ts `', '\r', ' \r'),
  )
  .map(([indent, marker, tail]) => indent + marker + tail);
const line = fc.oneof({ arbitrary: tokenLine, weight: 3 }, { arbitrary: fenceLine, weight: 2 });
const text = fc
  .tuple(fc.array(line, { maxLength: 14 }), fc.constantFrom('\n', '\n', '\r\n'))
  .map(([lines, eol]) => lines.join(eol));
const blocks = fc.array(text, { maxLength: 5 });

describe('signal scanner against the reference parser (property)', () => {
  it('masks exactly the same code', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(maskCode(t)).toBe(referenceMaskCode(t));
      }),
      { numRuns: RUNS },
    );
  });

  it('finds the same signals at the same positions in one text', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(parseSignals(t)).toEqual(referenceParseSignals(t));
      }),
      { numRuns: RUNS },
    );
  });

  it('finds the same signals in text blocks fed one at a time', () => {
    fc.assert(
      fc.property(blocks, (bs) => {
        const scanner = new SignalScanner();
        for (const b of bs) scanner.add(b);
        expect(scanner.result()).toEqual(referenceParseSignals(bs));
        expect(parseSignals(bs)).toEqual(referenceParseSignals(bs));
      }),
      { numRuns: RUNS },
    );
  });
});

// ---- The reference: the parser as it was before the scanner (src/core/signals.ts). ----

const TAG = /<ralph>((?:(?!<ralph>)[\s\S])*?)<\/ralph>/gi;
const COMPLETE = /<ralph-complete\s*\/>|<promise>\s*COMPLETE\s*<\/promise>/i;
const LEGACY = /^[ \t]*\[(DONE|FAIL)\]|\[(DONE|FAIL)\][ \t]*\r?$/gim;

/** Reads every signal from the agent's assistant text (one string, or its text blocks in order). */
function referenceParseSignals(text: string | readonly string[]): Signals {
  const blocks = typeof text === 'string' ? [text] : text;
  const signals: Signals = {
    done: [],
    fail: [],
    learn: [],
    ask: [],
    complete: false,
    legacyDone: false,
    legacyFail: false,
    outcomes: [],
  };
  const legacy: OutcomeSignal[] = [];
  let taggedCount = 0;
  let offset = 0;
  for (const block of blocks) {
    const masked = referenceMaskCode(block);
    for (const match of masked.matchAll(TAG)) {
      const start = match.index;
      // The tags are found in the masked text; the content comes from the original, code spans included.
      const inner = block.slice(start + '<ralph>'.length, start + match[0].length - '</ralph>'.length);
      if (addTag(signals, inner.trim(), offset + start)) taggedCount++;
    }
    if (COMPLETE.test(masked)) signals.complete = true;
    for (const match of masked.matchAll(LEGACY)) {
      const position = offset + match.index;
      if ((match[1] ?? match[2] ?? '').toUpperCase() === 'DONE') {
        legacy.push({ kind: 'legacy-done', position });
      } else {
        legacy.push({ kind: 'legacy-fail', reason: lineAround(block, match.index, match[0]), position });
      }
    }
    offset += block.length + 1;
  }
  if (taggedCount === 0 && legacy.length > 0) {
    signals.outcomes.push(...legacy);
    signals.legacyDone = legacy.some((s) => s.kind === 'legacy-done');
    signals.legacyFail = legacy.some((s) => s.kind === 'legacy-fail');
  }
  return signals;
}

/** The rest of the line a legacy marker sits on, as its reason. */
function lineAround(block: string, index: number, marker: string): string {
  const start = block.lastIndexOf('\n', index) + 1;
  const end = block.indexOf('\n', index);
  const line = block.slice(start, end === -1 ? undefined : end);
  const at = index - start;
  return (line.slice(0, at) + line.slice(at + marker.length)).replace(/\[FAIL\]/i, '').trim();
}

function addTag(signals: Signals, inner: string, position: number): boolean {
  const keyword = /^(DONE|FAIL|LEARN)\b/i.exec(inner)?.[1]?.toUpperCase();
  const rest = inner.slice(keyword?.length ?? 0);
  if (keyword === 'DONE') {
    const id = rest.replace(/^\s*:?\s*/, '').split(/\s+/)[0] ?? '';
    signals.done.push(id);
    signals.outcomes.push({ kind: 'done', id, position });
    return true;
  }
  if (keyword === 'FAIL') {
    const { id, reason } = splitFail(rest);
    signals.fail.push({ id, reason });
    signals.outcomes.push({ kind: 'fail', id, reason, position });
    return true;
  }
  if (keyword === 'LEARN') {
    const insight = rest.replace(/^\s*:?/, '').trim();
    if (insight !== '') signals.learn.push(insight);
    return true;
  }
  return false;
}

/** `" US-001: reason"` → id and reason; `": reason"` (no id) and `" US-001"` (no reason) are accepted too. */
function splitFail(rest: string): FailSignal {
  const trimmed = rest.trim();
  if (trimmed.startsWith(':')) return { id: '', reason: trimmed.slice(1).trim() };
  const match = /^([^\s:]*)\s*:?\s*([\s\S]*)$/.exec(trimmed);
  return { id: match?.[1] ?? '', reason: (match?.[2] ?? '').trim() };
}

/**
 * Replaces every character inside fenced code blocks and inline code spans
 * with a space, keeping line breaks, so offsets still match the original.
 */
function referenceMaskCode(text: string): string {
  const lines = text.split('\n');
  let fence: { char: string; length: number } | null = null;
  const out: string[] = [];
  for (const line of lines) {
    if (fence) {
      const close = /^[ \t]*(`{3,}|~{3,})[ \t]*\r?$/.exec(line);
      if (close?.[1]?.[0] === fence.char && close[1].length >= fence.length) fence = null;
      out.push(blank(line));
      continue;
    }
    const open = /^[ \t]*(`{3,}|~{3,})(.*)$/.exec(line);
    const marker = open?.[1];
    // A backtick fence's info string cannot contain a backtick: "```x```" is inline code.
    if (marker && !(marker[0] === '`' && open[2]?.includes('`'))) {
      fence = { char: marker[0] ?? '`', length: marker.length };
      out.push(blank(line));
      continue;
    }
    out.push(maskInlineCode(line));
  }
  return out.join('\n');
}

function maskInlineCode(line: string): string {
  let result = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '`') {
      result += line[i];
      i++;
      continue;
    }
    let runEnd = i;
    while (line[runEnd] === '`') runEnd++;
    const run = runEnd - i;
    const close = findRun(line, runEnd, run);
    if (close === -1) {
      // An unmatched run is literal text.
      result += line.slice(i, runEnd);
      i = runEnd;
    } else {
      result += blank(line.slice(i, close + run));
      i = close + run;
    }
  }
  return result;
}

/** The start of the next run of exactly `length` backticks at or after `from`, or -1. */
function findRun(line: string, from: number, length: number): number {
  let i = from;
  while (i < line.length) {
    if (line[i] !== '`') {
      i++;
      continue;
    }
    let end = i;
    while (line[end] === '`') end++;
    if (end - i === length) return i;
    i = end;
  }
  return -1;
}

const blank = (s: string): string => s.replace(/[^\r]/g, ' ');
