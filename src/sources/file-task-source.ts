import type { StoryStatus } from '../core/types.js';
import { readText, writeTextAtomic } from './read-text.js';
import { invalidTaskFile } from './source-errors.js';
import type { ReadResult, TaskSource, TextFormat } from './task-source.js';
import { withGraphIssues } from './with-graph-issues.js';

/** A prd.json or prd.md on disk: the format's pure transforms plus reading and atomic writing. */
export function fileTaskSource(textFormat: TextFormat, path: string): TaskSource {
  return {
    format: textFormat.format,
    path,
    async read(): Promise<ReadResult> {
      const read = await readText(path);
      if (!read.ok) return { ok: false, issues: [read.issue] };
      return withGraphIssues(textFormat.parse(read.text, path));
    },
    async setStatus(storyId: string, status: StoryStatus): Promise<void> {
      const read = await readText(path);
      if (!read.ok) throw invalidTaskFile(path, [read.issue]);
      const next = textFormat.withStatus(read.text, path, storyId, status);
      if (next !== read.text) await writeTextAtomic(path, next);
    },
  };
}
