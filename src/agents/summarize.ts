/** Shortening tool arguments and outputs for events. Pure; shared by adapters. */

export const SUMMARY_MAX_CHARS = 200;
export const TOOL_OUTPUT_MAX_CHARS = 4096;

/** The argument that says what a tool call is about, in the order agents' tools name it. */
const KEY_ARGUMENTS = ['file_path', 'command', 'cmd', 'pattern', 'path', 'url', 'notebook_path', 'query'];

export function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const dropped = text.length - maxChars;
  return `${text.slice(0, maxChars)}… [${dropped} more chars]`;
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{file_path: 'src/a.ts', content: '…'}` -> `src/a.ts`; falls back to the first string argument. */
export function toolSummary(input: unknown): string {
  if (typeof input === 'string') return truncate(oneLine(input), SUMMARY_MAX_CHARS);
  if (!isRecord(input)) return '';
  const key = KEY_ARGUMENTS.find((k) => typeof input[k] === 'string' && input[k] !== '');
  const value = key === undefined ? Object.values(input).find((v) => typeof v === 'string') : input[key];
  return typeof value === 'string' ? truncate(oneLine(value), SUMMARY_MAX_CHARS) : '';
}
