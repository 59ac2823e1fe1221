/**
 * A problem found in a task file or config. Every command that reads one
 * reports these the same way: `file:line:column: path: message`.
 */
export interface ValidationIssue {
  file: string;
  line?: number;
  column?: number;
  /** JSON-style path into the document, e.g. `userStories[3].priority`. */
  path?: string;
  message: string;
  severity: 'error' | 'warning';
}

export function formatIssue(issue: ValidationIssue): string {
  let where = issue.file;
  if (issue.line !== undefined) {
    where += `:${issue.line}`;
    if (issue.column !== undefined) where += `:${issue.column}`;
  }
  const path = issue.path ? `${issue.path}: ` : '';
  const tag = issue.severity === 'warning' ? 'warning: ' : '';
  return `${where}: ${tag}${path}${issue.message}`;
}

/** Formats a zod-style path (`['userStories', 3, 'priority']`) as `userStories[3].priority`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

export const hasErrors = (issues: readonly ValidationIssue[]): boolean =>
  issues.some((i) => i.severity === 'error');

/** Text from a file, cut for a message: a 128 KB heading must not become a 128 KB line. */
export function shorten(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
