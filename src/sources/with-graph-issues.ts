import { validatePrd } from '../core/validate-prd.js';
import { hasErrors } from '../core/validation-issue.js';
import type { ReadResult } from './task-source.js';

/**
 * Adds the PRD-level checks (branch name, story ids, story graph) to a
 * parse; any error makes the result not ok. A failed parse that still read
 * some stories gets them too, so every problem is reported in one pass.
 */
export function withGraphIssues(result: ReadResult): ReadResult {
  if (!result.ok) {
    const partial = result.partial;
    if (!partial || partial.stories.length === 0) return result;
    return { ...result, issues: [...result.issues, ...validatePrd(partial)] };
  }
  const issues = [...result.warnings, ...validatePrd(result.prd)];
  return hasErrors(issues)
    ? { ok: false, issues, partial: result.prd }
    : { ok: true, prd: result.prd, warnings: issues };
}
