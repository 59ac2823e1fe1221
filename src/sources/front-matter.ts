import { splitLines } from './text-position.js';

export interface FrontMatter {
  /** The YAML between the `---` lines; it starts on the file's second line. */
  yaml: string;
  /** 0-based line index of the closing `---` (or `...`). */
  close: number;
  /** The markdown after the closing line. */
  body: string;
}

const isOpen = (line: string): boolean => /^(\uFEFF)?---[ \t]*$/.test(line);
const isClose = (line: string): boolean => /^(---|\.\.\.)[ \t]*$/.test(line);

/** `undefined` when the file does not start with `---`; `'unclosed'` when no closing line follows. */
export function splitFrontMatter(text: string): FrontMatter | 'unclosed' | undefined {
  const lines = splitLines(text);
  if (!isOpen(lines[0]?.content ?? '')) return undefined;
  const close = lines.findIndex((line, i) => i > 0 && isClose(line.content));
  if (close < 0) return 'unclosed';
  const yaml = lines
    .slice(1, close)
    .map((l) => l.content + l.eol)
    .join('');
  const body = lines
    .slice(close + 1)
    .map((l) => l.content + l.eol)
    .join('');
  return { yaml, close, body };
}
