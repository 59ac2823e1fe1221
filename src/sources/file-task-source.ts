import type { StoryStatus } from '../core/types.js';
import { readText, writeTextAtomic } from './read-text.js';
import { invalidTaskFile } from './source-errors.js';
import type { ReadResult, TaskSource, TextFormat } from './task-source.js';
import { withGraphIssues } from './with-graph-issues.js';

/** A prd.json or prd.md on disk: the format's pure transforms plus reading and atomic writing. */
export function fileTaskSource(textFormat: TextFormat, path: string): TaskSource {
  // A run reads the task file several times an iteration (selection, prompt, record); the file is
  // read each time, since the user may edit it, but the same text is parsed and checked once.
  let last: { text: string; result: ReadResult } | undefined;
  return {
    format: textFormat.format,
    path,
    async read(): Promise<ReadResult> {
      const read = await readText(path);
      if (!read.ok) return { ok: false, issues: [read.issue] };
      if (last?.text !== read.text) {
        last = { text: read.text, result: withGraphIssues(textFormat.parse(read.text, path)) };
      }
      return last.result;
    },
    async setStatus(storyId: string, status: StoryStatus): Promise<void> {
      const read = await readText(path);
      if (!read.ok) throw invalidTaskFile(path, [read.issue]);
      const next = textFormat.withStatus(read.text, path, storyId, status);
      if (next !== read.text) await writeTextAtomic(path, next);
    },
  };
}
