/**
 * Markdown from the progress file (a story's entry: its heading, the summary,
 * files changed, the learnings under them) as screen lines: headings without
 * their `#`, emphasis and code without their markers, lists with bullets and
 * their nesting kept, wrapped under their own text. A line break the author
 * made stays one (an iteration history is a line per iteration).
 */
import { lexer, type Token, type Tokens } from 'marked';
import { wrap } from './format.js';
import type { LineStyle, LogLine } from './log-lines.js';

const BULLETS = ['•', '◦', '▪'] as const;

export function markdownLines(markdown: string, width: number, style: LineStyle = 'text'): LogLine[] {
  const out: LogLine[] = [];
  blocks(lexer(markdown), { width: Math.max(10, width), indent: '', style, depth: 0 }, out);
  while (out.length > 0 && out.at(-1)?.text.trim() === '') out.pop();
  return out;
}

interface Place {
  width: number;
  /** What every line starts with (a list's nesting, a quote's bar). */
  indent: string;
  style: LineStyle;
  /** How deep in lists: which bullet. */
  depth: number;
}

function blocks(tokens: readonly Token[], at: Place, out: LogLine[]): void {
  for (const token of tokens) block(token, at, out);
}

function block(token: Token, at: Place, out: LogLine[]): void {
  switch (token.type) {
    case 'heading':
      gap(out, at);
      say(inline(token.tokens ?? []), at, { ...at, style: headingStyle(at.style) }, out);
      return;
    case 'paragraph':
    case 'text':
      say(token.tokens ? inline(token.tokens) : token.text, at, at, out);
      return;
    case 'list':
      list(token as Tokens.List, at, out);
      return;
    case 'code':
      for (const line of token.text.split('\n')) out.push({ text: `${at.indent}  ${line}`, style: 'dim' });
      return;
    case 'blockquote':
      blocks(token.tokens ?? [], { ...at, indent: `${at.indent}│ ` }, out);
      return;
    case 'space':
    case 'hr':
      gap(out, at);
      return;
    default:
      // Anything else (a table, raw HTML) as the text it was written as.
      say(token.raw.trimEnd(), at, at, out);
  }
}

function list(token: Tokens.List, at: Place, out: LogLine[]): void {
  const start = typeof token.start === 'number' ? token.start : 1;
  token.items.forEach((item, i) => {
    const mark = token.ordered
      ? `${start + i}.`
      : item.task
        ? item.checked
          ? '☑'
          : '☐'
        : (BULLETS[at.depth % BULLETS.length] ?? '•');
    const [first, ...rest] = item.tokens.filter((t) => t.type !== 'checkbox');
    const hang = ' '.repeat(mark.length + 1);
    const inner: Place = { ...at, indent: `${at.indent}${hang}`, depth: at.depth + 1 };
    // An item that is all emphasis (`**Learnings for future iterations:**`) heads what is under it.
    const style = first !== undefined && isAllStrong(first) ? headingStyle(at.style) : at.style;
    if (first !== undefined && (first.type === 'text' || first.type === 'paragraph')) {
      const text = 'tokens' in first && first.tokens ? inline(first.tokens) : first.text;
      say(text, { ...at, indent: `${at.indent}${mark} ` }, { ...inner, style }, out);
      blocks(rest, inner, out);
    } else {
      out.push({ text: `${at.indent}${mark}`, style: at.style });
      blocks(first === undefined ? rest : [first, ...rest], inner, out);
    }
  });
}

/** Wrapped text: the first line after `first.indent`, the others under it after `then.indent`. */
function say(text: string, first: Place, then: Place, out: LogLine[]): void {
  let lead = first.indent;
  for (const line of text.split('\n')) {
    for (const piece of wrap(line.trim(), Math.max(4, then.width - then.indent.length))) {
      out.push({ text: `${lead}${piece}`, style: then.style });
      lead = then.indent;
    }
  }
}

function gap(out: LogLine[], at: Place): void {
  if (out.length > 0 && out.at(-1)?.text.trim() !== '') out.push({ text: '', style: at.style });
}

/** A section's own heading stands out from its dim body; on plain text, it is an accent. */
const headingStyle = (style: LineStyle): LineStyle => (style === 'dim' ? 'text' : 'accent');

function isAllStrong(token: Token): boolean {
  const inner = 'tokens' in token ? (token.tokens ?? []) : [];
  return inner.length === 1 && inner[0]?.type === 'strong';
}

/** Inline markdown as the text it reads as: no `**`, `_` or backticks; a link's words. */
function inline(tokens: readonly Token[]): string {
  return tokens
    .map((t) => {
      if (t.type === 'br') return '\n';
      if ('tokens' in t && t.tokens && t.tokens.length > 0) return inline(t.tokens);
      return 'text' in t && typeof t.text === 'string' ? t.text : t.raw;
    })
    .join('');
}
