/** Line-level recognisers shared by the markdown task sources. */

export interface MdHeading {
  level: number;
  text: string;
}

export function headingOf(line: string): MdHeading | undefined {
  const m = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$/.exec(line);
  if (!m?.[1]) return undefined;
  return { level: m[1].length, text: (m[2] ?? '').trim() };
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

/** `**Name:** value` (also `**Name**: value`, optionally as a list item). */
export function fieldOf(line: string): MdField | undefined {
  const m = /^(\s*(?:[-*+]\s+)?\*\*([A-Za-z][A-Za-z ]*?)\s*(?::\*\*|\*\*\s*:)[ \t]*)(.*?)\s*$/.exec(line);
  if (!m?.[1] || !m[2]) return undefined;
  return { name: m[2].toLowerCase(), value: m[3] ?? '', valueIndex: m[1].length };
}

export interface MdCheckbox {
  checked: boolean;
  text: string;
  /** 0-based index of the character between the brackets. */
  markIndex: number;
}

export function checkboxOf(line: string): MdCheckbox | undefined {
  const m = /^(\s*[-*+]\s+\[)([ xX])\](?:\s+(.*))?$/.exec(line);
  if (!m?.[1] || !m[2]) return undefined;
  return { checked: m[2] !== ' ', text: (m[3] ?? '').trim(), markIndex: m[1].length };
}

/** A plain bullet or numbered list item's text. */
export function listItemOf(line: string): string | undefined {
  const m = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
  return m?.[1]?.trim();
}
