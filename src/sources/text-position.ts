/**
 * Offsets where each line starts, for the text last asked about. Parsers ask
 * for many positions in one text (one per story), so the index is built once
 * and each lookup is a binary search instead of a scan from the start.
 */
let indexedText: string | undefined;
let lineStarts: number[] = [];

function lineStartsOf(text: string): number[] {
  if (text !== indexedText) {
    lineStarts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    indexedText = text;
  }
  return lineStarts;
}

/** 1-based line and column of a character offset, counting `\n` as the line break. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  const end = Math.min(Math.max(offset, 0), text.length);
  const starts = lineStartsOf(text);
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= end) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: end - (starts[low] ?? 0) + 1 };
}

/** A line of text without its terminator, and the terminator (`\n`, `\r\n` or '' on the last line). */
export interface TextLine {
  content: string;
  eol: string;
}

/** Splits text into lines, keeping each terminator so joining them gives back the same bytes. */
export function splitLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  const re = /\r?\n/g;
  let start = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    lines.push({ content: text.slice(start, m.index), eol: m[0] });
    start = m.index + m[0].length;
  }
  if (start < text.length) lines.push({ content: text.slice(start), eol: '' });
  return lines;
}

export const joinLines = (lines: readonly TextLine[]): string => lines.map((l) => l.content + l.eol).join('');

/** The line ending a file mostly uses, for lines the tool inserts. */
export function dominantEol(text: string): string {
  const crlf = text.match(/\r\n/g)?.length ?? 0;
  const lf = (text.match(/\n/g)?.length ?? 0) - crlf;
  return crlf > lf ? '\r\n' : '\n';
}
