import { ExitCode, InvalidInputError, RalphError } from '../core/errors.js';
import type { ValidationIssue } from '../core/validation-issue.js';

/** A status write-back named a story the task source does not define. */
export class UnknownStoryError extends RalphError {
  constructor(
    readonly storyId: string,
    readonly file: string,
  ) {
    super(`no story ${storyId} in ${file}`, 'unknown-story', ExitCode.Usage);
  }
}

export function invalidTaskFile(file: string, issues: readonly ValidationIssue[]): InvalidInputError {
  return new InvalidInputError(`${file} is not a valid task file`, issues);
}
