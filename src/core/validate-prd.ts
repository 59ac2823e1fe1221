import { branchNameProblem } from './ref-name.js';
import { storyIdProblem } from './story-id.js';
import type { Prd } from './types.js';
import { validateGraph } from './validate-graph.js';
import { shorten, type ValidationIssue } from './validation-issue.js';

/**
 * Everything a parsed PRD must satisfy before a run can use it: a branch
 * name git accepts, story ids that survive the signals, git refs and file
 * names, and a sound story graph (validate-graph.ts).
 */
export function validatePrd(prd: Prd): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (prd.branchName !== undefined) {
    const problem = branchNameProblem(prd.branchName);
    if (problem) {
      issues.push({
        ...(prd.branchLocation ?? { file: prd.path }),
        path: 'branchName',
        message: `branch name ${JSON.stringify(shorten(prd.branchName))} cannot be used: ${problem}`,
        severity: 'error',
      });
    }
  }
  for (const story of prd.stories) {
    const problem = storyIdProblem(story.id);
    if (problem) {
      issues.push({
        ...story.location,
        message: `story id ${JSON.stringify(shorten(story.id))} cannot be used: ${problem}`,
        severity: 'error',
      });
    }
  }
  return [...issues, ...validateGraph(prd)];
}
