import type { StoryStatus } from '../core/types.js';
import { parsePrdMd } from './parse-prd-md.js';
import { scanPrdMd } from './scan-prd-md.js';
import { invalidTaskFile, UnknownStoryError } from './source-errors.js';
import { dominantEol, joinLines, splitLines } from './text-position.js';

/**
 * Rewrites one story's `**Status:**` line (inserting it under the heading
 * when missing) and, on done, ticks that story's checkboxes, those in its
 * criteria's sub-lists too (Chief ticks every box of a done story). Every
 * other line is left byte for byte.
 */
export function withPrdMdStatus(text: string, file: string, storyId: string, status: StoryStatus): string {
  const parsed = parsePrdMd(text, file);
  if (!parsed.ok) throw invalidTaskFile(file, parsed.issues);
  const story = scanPrdMd(text, file).stories.find((s) => s.id === storyId);
  if (!story) throw new UnknownStoryError(storyId, file);

  const lines = splitLines(text);
  const eol = dominantEol(text);

  if (status === 'done') {
    const boxes = story.criteria.flatMap((c) => [
      ...(c.checked === false && c.markIndex !== undefined ? [{ line: c.line, markIndex: c.markIndex }] : []),
      ...(c.nested ?? []).filter((box) => !box.checked),
    ]);
    for (const box of boxes) {
      const line = lines[box.line];
      if (!line) continue;
      const at = box.markIndex;
      line.content = `${line.content.slice(0, at)}x${line.content.slice(at + 1)}`;
    }
  }

  const statusLine = story.status ? lines[story.status.line] : undefined;
  if (story.status && statusLine) {
    statusLine.content = statusLine.content.slice(0, story.status.valueIndex) + status;
  } else {
    const heading = lines[story.heading];
    const lastLineWithoutEol = heading?.eol === '';
    if (heading && lastLineWithoutEol) heading.eol = eol;
    lines.splice(story.heading + 1, 0, {
      content: `**Status:** ${status}`,
      eol: lastLineWithoutEol ? '' : eol,
    });
  }
  return joinLines(lines);
}
