import { writeFileAtomic } from './atomic.js';
import { readOwnTextOrNull } from './fs-util.js';

/**
 * The progress file (progress.md or progress.txt, same content): a
 * "## Codebase Patterns" section on top, then one entry per finished story.
 * The functions below are text -> text; `updateProgress` does the I/O.
 */

export const PATTERNS_HEADING = '## Codebase Patterns';

export interface ProgressEntry {
  date: string;
  storyId: string;
  title: string;
  summary: string;
  filesChanged: readonly string[];
  learnings: readonly string[];
}

const PATTERNS_RE = /^##\s+Codebase Patterns\s*$/i;
const SECTION_END_RE = /^(#{1,2}\s|---\s*$)/;
const BULLET_RE = /^[-*+]\s+(.*)$/;

interface Lines {
  lines: string[];
  eol: string;
}

function split(text: string): Lines {
  return { lines: text.split(/\r?\n/), eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/** [heading index, end index (exclusive)] of the patterns section, or null. */
function findSection(lines: readonly string[]): [number, number] | null {
  const start = lines.findIndex((line) => PATTERNS_RE.test(line));
  if (start < 0) return null;
  let end = start + 1;
  while (end < lines.length && !SECTION_END_RE.test(lines[end] ?? '')) end++;
  return [start, end];
}

/** The bullet items of the "## Codebase Patterns" section; indented lines continue the item above. */
export function readCodebasePatterns(text: string): string[] {
  const { lines } = split(text);
  const section = findSection(lines);
  if (!section) return [];
  const items: string[] = [];
  for (const line of lines.slice(section[0] + 1, section[1])) {
    const bullet = BULLET_RE.exec(line);
    const last = items.length - 1;
    if (bullet) items.push((bullet[1] ?? '').trim());
    else if (/^\s+\S/.test(line) && last >= 0) items[last] = `${items[last]} ${line.trim()}`;
  }
  return items.filter((item) => item !== '');
}

const dedupeKey = (pattern: string): string =>
  pattern
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.\s]+$/, '');

const cleanPattern = (pattern: string): string =>
  pattern
    .replace(/^\s*[-*+]\s+/, '')
    .replace(/\s*\r?\n\s*/g, ' ')
    .trim();

/** Adds the patterns not already listed; creates the section at the top if missing. */
export function addPatterns(text: string, patterns: readonly string[]): string {
  const seen = new Set(readCodebasePatterns(text).map(dedupeKey));
  const fresh: string[] = [];
  for (const pattern of patterns.map(cleanPattern)) {
    const key = dedupeKey(pattern);
    if (pattern === '' || seen.has(key)) continue;
    seen.add(key);
    fresh.push(`- ${pattern}`);
  }
  if (fresh.length === 0) return text;
  const { lines, eol } = split(text);
  const section = findSection(lines);
  if (section) {
    let insertAt = section[0] + 1;
    for (let i = section[0] + 1; i < section[1]; i++) if ((lines[i] ?? '').trim() !== '') insertAt = i + 1;
    return [...lines.slice(0, insertAt), ...fresh, ...lines.slice(insertAt)].join(eol);
  }
  const at = titleBlockEnd(lines);
  const before = lines.slice(0, at);
  const after = lines.slice(at);
  while (after.length > 0 && (after[0] ?? '').trim() === '') after.shift();
  const block = [PATTERNS_HEADING, ...fresh];
  return [...before, ...(before.length > 0 ? [''] : []), ...block, '', ...after].join(eol);
}

/** A leading `# Title` and the lines right under it stay above the patterns section. */
function titleBlockEnd(lines: readonly string[]): number {
  if (!/^#\s/.test(lines[0] ?? '')) return 0;
  let i = 1;
  while (i < lines.length && (lines[i] ?? '').trim() !== '' && !/^#{1,6}\s/.test(lines[i] ?? '')) i++;
  return i;
}

/** One entry in the snarktank progress.txt style, ending in a `---` separator. */
export function formatEntry(entry: ProgressEntry): string[] {
  const summary = entry.summary
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => `- ${line.replace(/^[-*+]\s+/, '')}`);
  const nested = (items: readonly string[]) => items.map((item) => `  - ${cleanPattern(item)}`);
  return [
    `## ${entry.date} - ${entry.storyId}: ${entry.title}`,
    ...summary,
    ...(entry.filesChanged.length > 0 ? ['- Files changed:', ...nested(entry.filesChanged)] : []),
    ...(entry.learnings.length > 0
      ? ['- **Learnings for future iterations:**', ...nested(entry.learnings)]
      : []),
    '---',
  ];
}

export function appendEntry(text: string, entry: ProgressEntry): string {
  const { lines, eol } = split(text);
  while (lines.length > 0 && (lines[lines.length - 1] ?? '').trim() === '') lines.pop();
  const head = lines.length > 0 ? [...lines, ''] : [];
  return [...head, ...formatEntry(entry), ''].join(eol);
}

/** The progress file's text; '' when it does not exist yet. */
export async function readProgress(file: string): Promise<string> {
  return (await readOwnTextOrNull(file)) ?? '';
}

/** Applies a text transform to the progress file; writes only if it changed. Returns whether it did. */
export async function updateProgress(file: string, change: (text: string) => string): Promise<boolean> {
  const before = await readOwnTextOrNull(file);
  const after = change(before ?? '');
  if (after === before || (before === null && after === '')) return false;
  await writeFileAtomic(file, after);
  return true;
}
