import type { Prd, StoryStatus, TaskFormat } from '../core/types.js';
import type { ValidationIssue } from '../core/validation-issue.js';

export type ReadResult =
  | { ok: true; prd: Prd; warnings: ValidationIssue[] }
  | {
      ok: false;
      issues: ValidationIssue[];
      /**
       * What could be read despite the errors (the stories that parsed), so
       * the story-graph checks report in the same pass as the format errors.
       */
      partial?: Prd;
    };

/**
 * A task file format, read from disk by `openTaskSource` (load-task-source.ts).
 * `read` also validates the story graph, so `ok: true` means the PRD is usable.
 */
export interface TaskSource {
  readonly format: TaskFormat;
  /** The task file, or the spec directory; for a remote source, the address of its tasks. */
  readonly path: string;
  /**
   * Set for tasks kept outside the checkout (GitHub issues): `path` is an
   * address, not a file. The runners copy, commit and restore nothing of it,
   * and every checkout of a run reads the same source.
   */
  readonly remote?: true;
  read(): Promise<ReadResult>;
  /** Writes one story's status back in place, leaving everything else byte-identical. */
  setStatus(storyId: string, status: StoryStatus): Promise<void>;
}

/** The task file or spec directory a source reads in the checkout; null for a remote source. */
export const taskFileOf = (source: Pick<TaskSource, 'path' | 'remote'>): string | null =>
  source.remote ? null : source.path;

/** A single-file format as pure text transforms, so it can be tested without disk. */
export interface TextFormat {
  readonly format: Exclude<TaskFormat, 'spec-dir' | 'github'>;
  parse(text: string, file: string): ReadResult;
  /**
   * The file's text with one story's status changed and nothing else.
   * Throws `InvalidInputError` when the text does not parse and
   * `UnknownStoryError` when no story has that id.
   */
  withStatus(text: string, file: string, storyId: string, status: StoryStatus): string;
}
