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
  /** The task file, or the spec directory. */
  readonly path: string;
  read(): Promise<ReadResult>;
  /** Writes one story's status back in place, leaving everything else byte-identical. */
  setStatus(storyId: string, status: StoryStatus): Promise<void>;
}

/** A single-file format as pure text transforms, so it can be tested without disk. */
export interface TextFormat {
  readonly format: Exclude<TaskFormat, 'spec-dir'>;
  parse(text: string, file: string): ReadResult;
  /**
   * The file's text with one story's status changed and nothing else.
   * Throws `InvalidInputError` when the text does not parse and
   * `UnknownStoryError` when no story has that id.
   */
  withStatus(text: string, file: string, storyId: string, status: StoryStatus): string;
}
