/** 1-based line and column of a character offset, counting `\n` as the line break. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
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
