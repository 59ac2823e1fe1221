import type { StoryStatus } from '../core/types.js';
import { splitFrontMatter } from './front-matter.js';
import { invalidTaskFile } from './source-errors.js';
import { dominantEol, joinLines, splitLines } from './text-position.js';

const WORDS: Record<StoryStatus, string> = { done: 'done', 'in-progress': 'in-progress', todo: 'pending' };

/** A top-level `status:` key with its value and an optional trailing comment. */
const STATUS_LINE = /^(status[ \t]*:[ \t]*)("[^"]*"|'[^']*'|[^#]*?)([ \t]+#.*)?[ \t]*$/;

/**
 * Rewrites only the `status:` line of a spec file's front matter (inserting
 * it after the opening `---` when absent); every other byte is kept.
 */
export function withSpecStatus(text: string, file: string, status: StoryStatus): string {
  const split = splitFrontMatter(text);
  if (split === undefined || split === 'unclosed') {
    throw invalidTaskFile(file, [{ file, line: 1, message: 'no YAML front matter', severity: 'error' }]);
  }
  const lines = splitLines(text);
  const word = WORDS[status];
  for (let i = 1; i < split.close; i++) {
    const line = lines[i];
    const m = line ? STATUS_LINE.exec(line.content) : null;
    if (line && m) {
      line.content = `${m[1] ?? 'status: '}${word}${m[3] ?? ''}`;
      return joinLines(lines);
    }
  }
  lines.splice(1, 0, { content: `status: ${word}`, eol: dominantEol(text) });
  return joinLines(lines);
}
