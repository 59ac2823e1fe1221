import { showIssue } from '../app/show-issue.js';
import { readTaskContext, type TaskContext } from '../app/task-context.js';
import { printError } from './output.js';

/** A command's target, read; the task file's warnings are printed on stderr. */
export function openTaskContext(
  target: string | undefined,
  cwd = process.cwd(),
  /** The project root, when the caller has found it already. */
  knownRoot?: string,
): Promise<TaskContext> {
  return readTaskContext(target, (warning) => printError(showIssue(warning)), cwd, knownRoot);
}
