import { validateGraph } from '../core/validate-graph.js';
import { hasErrors } from '../core/validation-issue.js';
import type { ReadResult } from './task-source.js';

/** Adds the story-graph checks to a successful parse; any error makes the result not ok. */
export function withGraphIssues(result: ReadResult): ReadResult {
  if (!result.ok) return result;
  const graph = validateGraph(result.prd);
  const issues = [...result.warnings, ...graph];
  return hasErrors(issues) ? { ok: false, issues } : { ok: true, prd: result.prd, warnings: issues };
}
