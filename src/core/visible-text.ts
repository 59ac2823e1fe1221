/**
 * Text written by others (task files, issues, agent and gate output) on its
 * way to a terminal or a notification: control characters become visible
 * symbols, so `ESC ]52;…` (a clipboard write), `ESC [2J` (a screen clear)
 * or a window-title sequence show as text instead of acting. So do the
 * characters that change how text reads without being seen: bidirectional
 * overrides and isolates (U+202E turns `txt.exe` into `exe.txt`), zero-width
 * characters (U+200B, the joiner between emoji excepted) and the Unicode
 * line and paragraph separators. Line breaks and tabs stay; a single-line
 * field (a title, an id, a reason) goes through `visibleLine`, which shows
 * them too, so that it cannot draw a line of its own. `--json` keeps the
 * exact text, as JSON escapes.
 */

/**
 * C0 controls (but tab and line feed), DEL, the C1 range, the bidi marks,
 * embeddings, overrides and isolates, the zero-width characters (a joiner
 * after an emoji is part of it) and the line and paragraph separators.
 */
const CONTROLS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200c\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|(?<!\p{Extended_Pictographic}\ufe0f?)\u200d/gu;

function symbolFor(char: string): string {
  const code = char.charCodeAt(0);
  // U+2400–U+241F are the Control Pictures of C0 (␀ … ␟), U+2421 is ␡.
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

export function visibleText(text: string): string {
  return text.replace(CONTROLS, symbolFor);
}

/** Line feed and tab, which `visibleText` keeps. */
const BREAKS = /[\n\t]/g;

/** A single-line field as one line: `visibleText`, with line feeds and tabs shown as ␊ and ␉ too. */
export function visibleLine(text: string): string {
  return visibleText(text).replace(BREAKS, symbolFor);
}

/** Whether `text` holds characters `visibleText` would change. */
export const hasControlCharacters = (text: string): boolean => new RegExp(CONTROLS.source, 'u').test(text);

/** DEL and the C1 range, which `JSON.stringify` leaves as they are. */
const LEFT_RAW_BY_JSON = /[\u007f-\u009f]/g;

/**
 * JSON text with DEL and C1 characters as JSON escapes too (`JSON.stringify`
 * escapes C0 itself). Outside strings JSON is printable ASCII, so this only
 * ever rewrites string contents, into escapes that parse back to the same text.
 */
export const inertJson = (json: string): string =>
  json.replace(LEFT_RAW_BY_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * `JSON.stringify` with every control character as a JSON escape: the text
 * is exact once parsed, and a terminal showing the line is not steered by it
 * (`--json`, `events.jsonl`).
 */
export const jsonText = (value: unknown, indent?: number): string =>
  inertJson(JSON.stringify(value, null, indent));
