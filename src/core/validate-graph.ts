import type { Prd, Story } from './types.js';
import type { ValidationIssue } from './validation-issue.js';

/**
 * Checks the story graph of a parsed PRD: at least one story, unique ids,
 * dependencies that name known stories, and no dependency cycles.
 */
export function validateGraph(prd: Prd): ValidationIssue[] {
  if (prd.stories.length === 0) {
    return [{ file: prd.path, message: 'no stories found', severity: 'error' }];
  }
  return [...duplicateIds(prd.stories), ...unknownDependencies(prd.stories), ...cycles(prd.stories)];
}

function issueAt(story: Story, message: string): ValidationIssue {
  const { file, line, column } = story.location;
  return { file, line, column, message, severity: 'error' };
}

function describeLocation(story: Story): string {
  const { file, line } = story.location;
  return line === undefined ? file : `${file}:${line}`;
}

function duplicateIds(stories: readonly Story[]): ValidationIssue[] {
  const first = new Map<string, Story>();
  const issues: ValidationIssue[] = [];
  for (const story of stories) {
    const earlier = first.get(story.id);
    if (earlier) {
      issues.push(
        issueAt(story, `duplicate story id ${story.id} (first defined at ${describeLocation(earlier)})`),
      );
    } else {
      first.set(story.id, story);
    }
  }
  return issues;
}

function unknownDependencies(stories: readonly Story[]): ValidationIssue[] {
  const ids = new Set(stories.map((s) => s.id));
  const issues: ValidationIssue[] = [];
  for (const story of stories) {
    for (const dep of story.dependsOn) {
      if (!ids.has(dep)) issues.push(issueAt(story, `${story.id} depends on unknown story ${dep}`));
    }
  }
  return issues;
}

/** Depth-first search; every back edge closes a cycle, reported once whatever node it is entered from. */
function cycles(stories: readonly Story[]): ValidationIssue[] {
  const byId = new Map<string, Story>();
  for (const story of stories) if (!byId.has(story.id)) byId.set(story.id, story);

  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];

  const visit = (id: string): void => {
    state.set(id, 'visiting');
    stack.push(id);
    for (const dep of byId.get(id)?.dependsOn ?? []) {
      if (!byId.has(dep)) continue;
      const depState = state.get(dep);
      if (depState === 'visiting') {
        const cycle = stack.slice(stack.lastIndexOf(dep));
        const key = canonicalKey(cycle);
        if (!seen.has(key)) {
          seen.add(key);
          const story = byId.get(cycle[0] ?? dep);
          if (story) issues.push(issueAt(story, `dependency cycle: ${[...cycle, dep].join(' -> ')}`));
        }
      } else if (depState === undefined) {
        visit(dep);
      }
    }
    stack.pop();
    state.set(id, 'done');
  };

  for (const id of byId.keys()) if (!state.has(id)) visit(id);
  return issues;
}

/** The same cycle entered at a different node must produce the same key. */
function canonicalKey(cycle: readonly string[]): string {
  let best = 0;
  for (let i = 1; i < cycle.length; i++) {
    if ((cycle[i] ?? '') < (cycle[best] ?? '')) best = i;
  }
  return [...cycle.slice(best), ...cycle.slice(0, best)].join('\u0000');
}
