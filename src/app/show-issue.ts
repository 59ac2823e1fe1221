import { isAbsolute, relative } from 'node:path';
import { formatIssue, type ValidationIssue } from '../core/validation-issue.js';

/** An issue as the user should see it: the file relative to where they are, when it is below it. */
export function showIssue(issue: ValidationIssue, cwd = process.cwd()): string {
  if (!isAbsolute(issue.file)) return formatIssue(issue);
  const rel = relative(cwd, issue.file);
  return formatIssue(rel === '' || rel.startsWith('..') ? issue : { ...issue, file: rel });
}
