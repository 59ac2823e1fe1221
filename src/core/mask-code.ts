/**
 * Markdown code in an agent's text, blanked out so that a quoted signal does
 * not count (design.md, "Signals"). Fenced blocks (``` or ~~~, closed by a
 * fence of the same character at least as long, else running to the end)
 * and inline code spans (a run of backticks closed by a run of the same
 * length on the same line) become spaces; line breaks and carriage returns
 * stay, so offsets and lines still match the original.
 *
 * The scan jumps from one backtick or `~~~` to the next with `indexOf`
 * rather than walking every line and character: agents write megabytes of
 * text per iteration, and most of it is neither.
 */

const TICK = 0x60;
const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;
/** Line and paragraph separators: line terminators to a regular expression's `.`. */
const LS = 0x2028;
const PS = 0x2029;

/** Replaces every character inside fenced code blocks and inline code spans with a space. */
export function maskCode(text: string, ranges: readonly number[] = codeRanges(text)): string {
  if (ranges.length === 0) return text;
  // One copy of the text's UTF-16 code units, blanked in place: building it from
  // slices made a string per span and spent the time collecting them.
  const units = Buffer.from(text, 'utf16le');
  // The next line break at or after a position; ranges come in order, so these only move forward.
  let lf = -1;
  let cr = -1;
  for (let i = 0; i < ranges.length; i += 2) {
    const end = ranges[i + 1] as number;
    let from = ranges[i] as number;
    while (from < end) {
      if (lf !== Number.POSITIVE_INFINITY && lf < from) lf = indexOrInfinity(text, '\n', from);
      if (cr !== Number.POSITIVE_INFINITY && cr < from) cr = indexOrInfinity(text, '\r', from);
      const stop = Math.min(lf, cr, end);
      if (stop > from) units.fill(' ', from * 2, stop * 2, 'utf16le');
      from = stop + 1;
    }
  }
  return units.toString('utf16le');
}

/** The code in `text` as [start, end) offset pairs, in order and not overlapping. */
export function codeRanges(text: string): number[] {
  const fences = fenceRanges(text);
  const ranges: number[] = [];
  let f = 0;
  let tick = text.indexOf('`');
  while (tick !== -1) {
    while (f < fences.length && (fences[f + 1] as number) <= tick)
      ranges.push(fences[f++] as number, fences[f++] as number);
    if (f < fences.length && (fences[f] as number) <= tick) {
      tick = text.indexOf('`', fences[f + 1]);
      continue;
    }
    tick = text.indexOf('`', inlineSpan(text, tick, endOfLine(text, tick), ranges));
  }
  while (f < fences.length) ranges.push(fences[f++] as number, fences[f++] as number);
  return ranges;
}

/**
 * Whether any of [start, end) is code, for a span within one line. Only the
 * fences and the lines asked about are read: signals are few, code spans many.
 */
export function codeLookup(text: string): (start: number, end: number) => boolean {
  let fences: number[] | undefined;
  let line = { start: -1, end: -1, spans: [] as number[] };
  return (start, end) => {
    fences ??= fenceRanges(text);
    if (overlaps(fences, start, end)) return true;
    if (start < line.start || start > line.end) {
      const lineStart = text.lastIndexOf('\n', start - 1) + 1;
      const lineEnd = endOfLine(text, start);
      const spans: number[] = [];
      for (let tick = text.indexOf('`', lineStart); tick !== -1 && tick < lineEnd; ) {
        tick = text.indexOf('`', inlineSpan(text, tick, lineEnd, spans));
      }
      line = { start: lineStart, end: lineEnd, spans };
    }
    return overlaps(line.spans, start, end);
  };
}

/** Whether [start, end) meets any of the ordered [start, end) pairs. */
function overlaps(ranges: readonly number[], start: number, end: number): boolean {
  // The first pair ending after `start`, by binary search over the pairs.
  let lo = 0;
  let hi = ranges.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ranges[mid * 2 + 1] as number) <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo < ranges.length / 2 && (ranges[lo * 2] as number) < end;
}

/** Every fenced block as [start, end) pairs: from its opening line's start to its closing line's end. */
function fenceRanges(text: string): number[] {
  const ranges: number[] = [];
  let ticks = text.indexOf('```');
  let tildes = text.indexOf('~~~');
  while (ticks !== -1 || tildes !== -1) {
    const at = ticks === -1 ? tildes : tildes === -1 ? ticks : Math.min(ticks, tildes);
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    let first = lineStart;
    while (isBlank(text.charCodeAt(first))) first++;
    const lineEnd = endOfLine(text, at);
    const end = first === at ? fenceFrom(text, at, lineEnd) : -1;
    if (end !== -1) ranges.push(lineStart, end);
    // No other fence can open on this line; after a fence, look past it.
    const next = end === -1 ? lineEnd : end;
    if (ticks !== -1 && ticks < next) ticks = text.indexOf('```', next);
    if (tildes !== -1 && tildes < next) tildes = text.indexOf('~~~', next);
  }
  return ranges;
}

function indexOrInfinity(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? Number.POSITIVE_INFINITY : at;
}

const isBlank = (code: number): boolean => code === SPACE || code === TAB;

function endOfLine(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

/**
 * When the line whose first non-blank character is `at` opens a fence, where
 * the block ends: the end of its closing line, or of the text; else -1.
 * The checks are those of the patterns `^[ \t]*(`{3,}|~{3,})(.*)$` (open)
 * and `^[ \t]*(`{3,}|~{3,})[ \t]*\r?$` (close), made on the text in place.
 */
function fenceFrom(text: string, at: number, lineEnd: number): number {
  const char = text.charCodeAt(at);
  const length = runLength(text, at, char);
  for (let i = at + length; i < lineEnd; i++) {
    const code = text.charCodeAt(i);
    // `.` stops at these, so the opening pattern fails; a backtick fence's info string cannot hold a backtick.
    if (code === CR || code === LS || code === PS || (code === char && char === TICK)) return -1;
  }
  const triple = text.slice(at, at + 3);
  for (let from = lineEnd; from < text.length; ) {
    const close = text.indexOf(triple, from);
    if (close === -1) break;
    const end = endOfLine(text, close);
    if (closesFence(text, close, end, char, length)) return end;
    from = end;
  }
  return text.length;
}

/** Whether the run of `char` at `at` is a line of its own (blanks around, a CR at most) at least `length` long. */
function closesFence(text: string, at: number, lineEnd: number, char: number, length: number): boolean {
  for (let i = at - 1; i >= 0 && text.charCodeAt(i) !== LF; i--)
    if (!isBlank(text.charCodeAt(i))) return false;
  let i = at + runLength(text, at, char);
  if (i - at < length) return false;
  while (i < lineEnd && isBlank(text.charCodeAt(i))) i++;
  return i === lineEnd || (i === lineEnd - 1 && text.charCodeAt(i) === CR);
}

function runLength(text: string, at: number, code: number): number {
  let end = at;
  while (text.charCodeAt(end) === code) end++;
  return end - at;
}

/**
 * The backtick run at `at`: a code span up to the next run of the same
 * length on its line (recorded in `ranges`), or literal text if there is
 * none. Returns where scanning goes on.
 */
function inlineSpan(text: string, at: number, lineEnd: number, ranges: number[]): number {
  const length = runLength(text, at, TICK);
  const runEnd = at + length;
  let i = text.indexOf('`', runEnd);
  while (i !== -1 && i < lineEnd) {
    const end = i + runLength(text, i, TICK);
    if (end - i === length) {
      ranges.push(at, end);
      return end;
    }
    i = text.indexOf('`', end);
  }
  return runEnd;
}
