/**
 * The signal protocol (design.md, "Signals"): tags the agent writes in its own
 * assistant text. The caller passes only assistant text blocks, never tool
 * output or the prompt, so an echoed instruction cannot count as a signal.
 *
 * Agents quote the protocol when they explain it, so anything inside a fenced
 * code block (``` or ~~~) or an inline code span is ignored. Inline code spans
 * are taken to end on the line they start on: a stray backtick must not hide
 * the rest of the message.
 *
 * Legacy `[DONE]` / `[FAIL]` only count when the text has no `<ralph>` tag at
 * all, and only at the start or the end of a line (surrounding whitespace
 * allowed), so prose such as "I will mark it [DONE] later" is not a signal.
 */

export interface FailSignal {
  id: string;
  reason: string;
}

/** A DONE or FAIL in the order it appeared; `position` is its offset in the blocks joined with newlines. */
export type OutcomeSignal =
  | { kind: 'done'; id: string; position: number }
  | { kind: 'fail'; id: string; reason: string; position: number }
  | { kind: 'legacy-done'; position: number }
  | { kind: 'legacy-fail'; reason: string; position: number };

export interface Signals {
  /** Story ids from `<ralph>DONE <id></ralph>`, in text order. */
  done: string[];
  fail: FailSignal[];
  learn: string[];
  /** `<ralph-complete/>` or `<promise>COMPLETE</promise>` was seen. */
  complete: boolean;
  /** A legacy `[DONE]` that counts (so never true alongside `<ralph>` tags). */
  legacyDone: boolean;
  legacyFail: boolean;
  /** Every DONE and FAIL, legacy ones included when they count, in text order. */
  outcomes: OutcomeSignal[];
}

export type SignalInterpretation =
  | { kind: 'done' }
  | { kind: 'done-wrong-id'; id: string }
  | { kind: 'fail'; reason: string }
  | { kind: 'none' };

const TAG = /<ralph>((?:(?!<ralph>)[\s\S])*?)<\/ralph>/gi;
const COMPLETE = /<ralph-complete\s*\/>|<promise>\s*COMPLETE\s*<\/promise>/i;
const LEGACY = /^[ \t]*\[(DONE|FAIL)\]|\[(DONE|FAIL)\][ \t]*\r?$/gim;

/** Reads every signal from the agent's assistant text (one string, or its text blocks in order). */
export function parseSignals(text: string | readonly string[]): Signals {
  const blocks = typeof text === 'string' ? [text] : text;
  const signals: Signals = {
    done: [],
    fail: [],
    learn: [],
    complete: false,
    legacyDone: false,
    legacyFail: false,
    outcomes: [],
  };
  const legacy: OutcomeSignal[] = [];
  let taggedCount = 0;
  let offset = 0;
  for (const block of blocks) {
    const masked = maskCode(block);
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
export function maskCode(text: string): string {
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

const sameId = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * What the signals say about the story that was asked for. The last decisive
 * signal in text order wins: a DONE for that story, any FAIL, or a legacy
 * `[DONE]` / `[FAIL]` (which carry no id). A DONE for another story only
 * matters when nothing decisive was said. Ids compare trimmed and
 * case-insensitively.
 */
export function interpretSignals(signals: Signals, expectedStoryId: string): SignalInterpretation {
  let decision: SignalInterpretation = { kind: 'none' };
  let wrongId: string | undefined;
  for (const outcome of signals.outcomes) {
    switch (outcome.kind) {
      case 'done':
        if (sameId(outcome.id, expectedStoryId)) decision = { kind: 'done' };
        else wrongId = outcome.id;
        break;
      case 'fail':
        decision = { kind: 'fail', reason: failReason(outcome, expectedStoryId) };
        break;
      case 'legacy-done':
        decision = { kind: 'done' };
        break;
      case 'legacy-fail':
        decision = { kind: 'fail', reason: outcome.reason };
        break;
    }
  }
  if (decision.kind === 'none' && wrongId !== undefined) return { kind: 'done-wrong-id', id: wrongId };
  return decision;
}

function failReason(outcome: { id: string; reason: string }, expected: string): string {
  if (outcome.id === '' || sameId(outcome.id, expected)) return outcome.reason;
  const about = `(reported for ${outcome.id})`;
  return outcome.reason === '' ? about : `${outcome.reason} ${about}`;
}
