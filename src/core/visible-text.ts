/**
 * Text written by others (task files, issues, agent and gate output) on its
 * way to a terminal or a notification: control characters become visible
 * symbols, so `ESC ]52;…` (a clipboard write), `ESC [2J` (a screen clear)
 * or a window-title sequence show as text instead of acting. Line breaks
 * and tabs stay. `--json` keeps the exact text, as JSON escapes.
 */

/** C0 controls (but tab and line feed), DEL, and the C1 range. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

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

/** Whether `text` holds characters `visibleText` would change. */
export const hasControlCharacters = (text: string): boolean => new RegExp(CONTROLS.source).test(text);

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
