/**
 * Line-level recognisers shared by the markdown task sources. They are
 * written as plain scans rather than regular expressions with adjacent
 * quantifiers, so a pathological line (128 KB of spaces, of digits, of `#`)
 * costs time linear in its length.
 */

export interface MdHeading {
  level: number;
  text: string;
}

const isBlank = (ch: string | undefined): boolean => ch === ' ' || ch === '\t';

/** An ATX heading (`### Text ###`), up to three leading spaces, as CommonMark reads it. */
export function headingOf(line: string): MdHeading | undefined {
  let i = 0;
  while (i < 3 && line[i] === ' ') i++;
  let level = 0;
  while (line[i + level] === '#') level++;
  if (level === 0 || level > 6) return undefined;
  const after = i + level;
  if (after < line.length && !isBlank(line[after])) return undefined;
  let text = line.slice(after).trim();
  // A closing run of '#' counts only after a space (or as the whole text).
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0) text = '';
  else if (end < text.length && isBlank(text[end - 1])) text = text.slice(0, end).trim();
  return { level, text };
}

export const isFence = (line: string): boolean => /^ {0,3}(`{3,}|~{3,})/.test(line);

/** For each line, whether it is inside (or delimits) a fenced code block, where nothing is structure. */
export function fencedLines(lines: readonly string[]): boolean[] {
  let open = false;
  return lines.map((line) => {
    if (isFence(line)) {
      open = !open;
      return true;
    }
    return open;
  });
}

export interface MdField {
  /** Lower-cased field name, e.g. `status`, `depends on`. */
  name: string;
  value: string;
  /** 0-based index in the line where the value starts. */
  valueIndex: number;
}

const FIELD_NAME = /^[A-Za-z][A-Za-z ]*$/;

/** `**Name:** value` (also `**Name**: value`, optionally as a list item). */
export function fieldOf(line: string): MdField | undefined {
  let i = 0;
  while (isBlank(line[i])) i++;
  if ((line[i] === '-' || line[i] === '*' || line[i] === '+') && isBlank(line[i + 1])) {
    i++;
    while (isBlank(line[i])) i++;
  }
  if (!line.startsWith('**', i)) return undefined;
  const close = line.indexOf('**', i + 2);
  if (close < 0) return undefined;
  let name = line.slice(i + 2, close);
  let at = close + 2;
  if (name.endsWith(':')) {
    name = name.slice(0, -1);
  } else {
    while (isBlank(line[at])) at++;
    if (line[at] !== ':') return undefined;
    at++;
  }
  name = name.trim();
  if (!FIELD_NAME.test(name)) return undefined;
  while (isBlank(line[at])) at++;
  return { name: name.toLowerCase(), value: line.slice(at).trim(), valueIndex: at };
}

const FIELD_ALIASES: Record<string, string> = {
  dependencies: 'depends on',
  depends: 'depends on',
  note: 'notes',
};

/** `fieldOf` with the spelling variants folded: `**Dependencies:**` is `depends on`. */
export function storyFieldOf(line: string): MdField | undefined {
  const field = fieldOf(line);
  return field ? { ...field, name: FIELD_ALIASES[field.name] ?? field.name } : undefined;
}

export interface MdCheckbox {
  checked: boolean;
  text: string;
  /** 0-based index of the character between the brackets. */
  markIndex: number;
}

export function checkboxOf(line: string): MdCheckbox | undefined {
  const m = /^(\s*[-*+]\s+\[)([ xX])\](?:\s+([\s\S]*))?$/.exec(line);
  if (!m?.[1] || !m[2]) return undefined;
  return { checked: m[2] !== ' ', text: (m[3] ?? '').trim(), markIndex: m[1].length };
}

/** A plain bullet or numbered list item's text. */
export function listItemOf(line: string): string | undefined {
  const m = /^\s*(?:[-*+]|\d+[.)])\s+([\s\S]*)$/.exec(line);
  return m?.[1]?.trim();
}

/** How far a line is indented, counting a tab as four columns. */
export function indentOf(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ch === ' ') width += 1;
    else if (ch === '\t') width += 4;
    else break;
  }
  return width;
}

/** `---`, `***`, `___` (three or more, spaces between allowed), as CommonMark reads a thematic break. */
export function isThematicBreak(line: string): boolean {
  return /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/.test(line);
}

/**
 * A line that only announces the acceptance criteria: `**Acceptance
 * Criteria**` (with or without a colon, inside or outside the bold), `_Acceptance
 * criteria_`, or ralph-tui's bare `Acceptance Criteria:`.
 */
export function isCriteriaLabel(line: string): boolean {
  return (
    /^\s*(?:(\*\*|__|\*|_)acceptance criteria:?\1|acceptance criteria)\s*:?\s*$/i.test(line) &&
    /[*_:]/.test(line)
  );
}

/** The line with `columns` of its leading whitespace removed (a tab counts as four, as in indentOf). */
export function dedent(line: string, columns: number): string {
  let width = 0;
  let i = 0;
  while (i < line.length && width < columns) {
    const ch = line[i];
    if (ch === ' ') width += 1;
    else if (ch === '\t') width += 4;
    else break;
    i++;
  }
  return line.slice(i);
}
