import type { Prd, Story } from './types.js';
import type { ValidationIssue } from './validation-issue.js';

/**
 * Checks the story graph of a parsed PRD: at least one story, unique ids,
 * dependencies that name known stories, and no dependency cycles.
 */
export function validateGraph(prd: Prd): ValidationIssue[] {
  if (prd.stories.length === 0) {
    return [
      {
        file: prd.path,
        message: 'no stories found: expected at least one story (an id such as US-001, a title, criteria)',
        severity: 'error',
      },
    ];
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

/** Signals compare ids case-insensitively, so `US-001` and `us-001` are the same story to the loop. */
function duplicateIds(stories: readonly Story[]): ValidationIssue[] {
  const first = new Map<string, Story>();
  const issues: ValidationIssue[] = [];
  for (const story of stories) {
    const key = story.id.toLowerCase();
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, story);
    } else if (earlier.id === story.id) {
      issues.push(
        issueAt(story, `duplicate story id ${story.id} (first defined at ${describeLocation(earlier)})`),
      );
    } else {
      issues.push(
        issueAt(
          story,
          `story id ${story.id} differs from ${earlier.id} (at ${describeLocation(earlier)}) only in case; signals compare ids ignoring case`,
        ),
      );
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

const MAX_CYCLES_REPORTED = 20;
const MAX_IDS_SHOWN = 12;

/**
 * Depth-first search with an explicit stack (a 20,000-story ring must not
 * exhaust the call stack); every back edge closes a cycle, reported once
 * whatever node it is entered from.
 */
function cycles(stories: readonly Story[]): ValidationIssue[] {
  const byId = new Map<string, Story>();
  for (const story of stories) if (!byId.has(story.id)) byId.set(story.id, story);

  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  let unreported = 0;

  const report = (dep: string): void => {
    if (issues.length >= MAX_CYCLES_REPORTED) {
      unreported++;
      return;
    }
    const cycle = path.slice(path.lastIndexOf(dep));
    const key = canonicalKey(cycle);
    if (seen.has(key)) return;
    seen.add(key);
    const story = byId.get(cycle[0] ?? dep);
    if (story) issues.push(issueAt(story, `dependency cycle: ${describeCycle([...cycle, dep])}`));
  };

  for (const start of byId.keys()) {
    if (state.has(start)) continue;
    const frames: { id: string; next: number }[] = [{ id: start, next: 0 }];
    state.set(start, 'visiting');
    path.push(start);
    for (let frame = frames.at(-1); frame !== undefined; frame = frames.at(-1)) {
      const deps = byId.get(frame.id)?.dependsOn ?? [];
      const dep = deps[frame.next];
      frame.next++;
      if (dep === undefined) {
        frames.pop();
        path.pop();
        state.set(frame.id, 'done');
      } else if (byId.has(dep)) {
        const depState = state.get(dep);
        if (depState === 'visiting') report(dep);
        else if (depState === undefined) {
          state.set(dep, 'visiting');
          path.push(dep);
          frames.push({ id: dep, next: 0 });
        }
      }
    }
  }
  const last = issues[issues.length - 1];
  if (last && unreported > 0) last.message += ` (and ${unreported} more dependency cycles not shown)`;
  return issues;
}

/** `A -> B -> A`; a long cycle shows its start and end around the number left out. */
function describeCycle(ids: readonly string[]): string {
  if (ids.length <= MAX_IDS_SHOWN) return ids.join(' -> ');
  const head = ids.slice(0, MAX_IDS_SHOWN / 2);
  const tail = ids.slice(-MAX_IDS_SHOWN / 2);
  const left = ids.length - head.length - tail.length;
  return `${head.join(' -> ')} -> … ${left} more … -> ${tail.join(' -> ')} (${ids.length - 1} stories)`;
}

/** The same cycle entered at a different node must produce the same key. */
function canonicalKey(cycle: readonly string[]): string {
  let best = 0;
  for (let i = 1; i < cycle.length; i++) {
    if ((cycle[i] ?? '') < (cycle[best] ?? '')) best = i;
  }
  return [...cycle.slice(best), ...cycle.slice(0, best)].join('\u0000');
}
