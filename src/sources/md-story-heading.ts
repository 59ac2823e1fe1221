/**
 * What a markdown heading says about a story: `US-001: Title`, `FEAT-200 -
 * Title`, `US-2.1.1: Title`, `Feature 1.1: Title` (ralph-tui's style, read
 * as `FEAT-1-1` as ralph-tui does), `1.2: Title`, `AUTH: Title`.
 */
export interface StoryHeading {
  id: string;
  title: string;
  /**
   * `strong`: PREFIX-123 (dotted parts allowed) or `Feature N.N`, a story
   * wherever it appears. `weak`: another single token with a digit (`1.2`,
   * `T1`), a story inside a stories section. `word`: a token without a digit
   * (`AUTH`), a story only inside a stories section and only when what
   * follows looks like a story.
   */
  kind: 'strong' | 'weak' | 'word';
}

const WORD_PART = /^[A-Za-z][A-Za-z0-9_]*$/;
const NUMBER_PART = /^\d+(?:\.\d+)*$/;
const WEAK = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const FEATURE = /^feature[ \t]+(\d+(?:\.\d+)+)(?=[ \t]*(?::|$)|[ \t]+[-–—][ \t])/i;

/** `US-001`, `FEAT-200`, `AUTH-LOGIN-7`, `US-2.1`: letters, then `-` parts, the last one a number. */
export function isStrongId(token: string): boolean {
  const parts = token.split('-');
  if (parts.length < 2) return false;
  const last = parts[parts.length - 1] ?? '';
  if (!NUMBER_PART.test(last)) return false;
  return parts.slice(0, -1).every((part) => WORD_PART.test(part));
}

/** `**US-001**`, `` `US-001` `` and `[US-001]` name the same id. */
function unwrap(token: string): string {
  for (const [open, close] of [
    ['**', '**'],
    ['`', '`'],
    ['[', ']'],
  ] as const) {
    if (token.length > open.length + close.length && token.startsWith(open) && token.endsWith(close)) {
      return token.slice(open.length, token.length - close.length);
    }
  }
  return token;
}

/** The text after the id: `: Title`, ` - Title`, ` — Title`, nothing, or (for strong ids) just ` Title`. */
function titleAfter(rest: string): { title: string; separated: boolean } {
  const trimmed = rest.trimStart();
  if (trimmed === '') return { title: '', separated: true };
  if (trimmed.startsWith(':')) return { title: trimmed.slice(1).trim(), separated: true };
  const dash = trimmed[0];
  if ((dash === '-' || dash === '–' || dash === '—') && /\s/.test(trimmed[1] ?? '')) {
    return { title: trimmed.slice(1).trim(), separated: true };
  }
  return { title: trimmed.trim(), separated: false };
}

/** The story a heading's text names, before context decides whether it is one. */
export function storyHeadingOf(text: string): StoryHeading | undefined {
  const feature = FEATURE.exec(text);
  if (feature?.[1]) {
    const { title } = titleAfter(text.slice(feature[0].length));
    return { id: `FEAT-${feature[1].split('.').join('-')}`, title, kind: 'strong' };
  }
  let end = 0;
  while (end < text.length && !/[\s:]/.test(text[end] ?? '')) end++;
  const raw = text.slice(0, end);
  if (raw === '') return undefined;
  const token = unwrap(raw);
  const { title, separated } = titleAfter(text.slice(end));
  if (isStrongId(token)) return { id: token, title, kind: 'strong' };
  if (!separated) return undefined;
  if (WEAK.test(token) && /\d/.test(token)) return { id: token, title, kind: 'weak' };
  if (text[end] === ':' || text.slice(end).trimStart().startsWith(':')) {
    return { id: token, title, kind: 'word' };
  }
  return undefined;
}

/** Strong ids mentioned anywhere in a heading (`Login (US-004)`), for headings that are not stories. */
export function mentionedIds(text: string): string[] {
  const ids: string[] = [];
  for (const word of text.split(/[^A-Za-z0-9_.-]+/)) {
    let end = word.length;
    while (end > 0 && word[end - 1] === '.') end--;
    const id = word.slice(0, end);
    if (isStrongId(id)) ids.push(id);
  }
  return ids;
}
