import { join } from 'node:path';
import type { Prd, Story } from '../core/types.js';
import { hasErrors, type ValidationIssue } from '../core/validation-issue.js';
import { parseSpecFile } from './parse-spec-file.js';
import { classifySpecPath } from './spec-path.js';
import { batchDependencies, parseStoryQueue, queueGroups } from './story-queue.js';
import type { ReadResult } from './task-source.js';

/** `.ralph/stories.txt` beside the spec directory, when there is one. */
export interface QueueText {
  file: string;
  text: string;
}

export interface SpecFileText {
  /** Posix path relative to the specs directory, e.g. `epic-1/story-1.2-login.md`. */
  relPath: string;
  text: string;
}

interface Entry {
  story: Story;
  epic: number;
  number: number;
  fmPriority: number | undefined;
}

const compare = (a: Entry, b: Entry): number =>
  a.epic - b.epic ||
  a.number - b.number ||
  (a.fmPriority ?? Number.POSITIVE_INFINITY) - (b.fmPriority ?? Number.POSITIVE_INFINITY) ||
  a.story.location.file.localeCompare(b.story.location.file);

/**
 * Builds the PRD of a spec directory from its files' text. Pure: `dir` is
 * only used to name files in messages and locations.
 *
 * Ordering: the contract orders specs by epic/story number, then priority.
 * Since every story has a distinct number, `priority` is set to the story's
 * position in that order (1-based) so selection follows the numbers; a
 * front-matter `priority` only breaks ties between files that claim the
 * same number (which validation then reports as duplicate ids).
 *
 * With a `.ralph/stories.txt` queue the queue decides instead: its order,
 * its `x` skips, its `[batch:N]` groups (see story-queue.ts).
 */
export function parseSpecDir(
  dir: string,
  files: readonly SpecFileText[],
  project: string,
  queue?: QueueText,
): ReadResult {
  const issues: ValidationIssue[] = [];
  const entries: Entry[] = [];
  for (const { relPath, text } of files) {
    const file = join(dir, relPath);
    const where = classifySpecPath(relPath);
    if (where.kind === 'ignore') continue;
    if (where.kind === 'skip') {
      issues.push({ file, message: where.message, severity: 'warning' });
      continue;
    }
    const parsed = parseSpecFile(text, file, where.slug);
    issues.push(...parsed.issues);
    if (!parsed.ok) continue;
    const spec = parsed.story;
    if (spec.id !== undefined && spec.id !== where.id) {
      issues.push({
        file,
        line: 1,
        message: `front matter id ${spec.id} differs from the file name; using ${where.id}`,
        severity: 'warning',
      });
    }
    const story: Story = {
      id: where.id,
      title: spec.title,
      description: spec.description,
      acceptanceCriteria: spec.acceptanceCriteria,
      priority: 0,
      status: spec.status,
      dependsOn: spec.dependsOn,
      order: 0,
      location: { file, line: 1, column: 1 },
    };
    entries.push({ story, epic: where.epic, number: where.story, fmPriority: spec.priority });
  }

  if (entries.length === 0 && !hasErrors(issues)) {
    issues.push({
      file: dir,
      message:
        'no stories found: expected files like epic-1/story-1.1-login.md, each starting with YAML front matter between --- lines',
      severity: 'error',
    });
  }

  const sorted = entries.sort(compare).map((e) => e.story);
  const stories = (queue ? queued(sorted, queue, issues) : sorted).map((story, index) => ({
    ...story,
    order: index + 1,
    priority: index + 1,
  }));
  const prd: Prd = { format: 'spec-dir', path: dir, project, stories };
  if (hasErrors(issues)) return { ok: false, issues, partial: prd };
  return { ok: true, prd, warnings: issues };
}

/**
 * The stories in the order the queue runs them (queueGroups), each group
 * waiting for the one before.
 * A spec the queue does not name is left out with a warning; a queued id
 * without a spec is an error at its line in the queue; a dependency on a
 * story the queue leaves out is not waited for, with a warning.
 */
function queued(stories: readonly Story[], text: QueueText, issues: ValidationIssue[]): Story[] {
  const queue = parseStoryQueue(text.text, text.file);
  issues.push(...queue.issues);
  const byId = new Map(stories.map((s) => [s.id, s]));
  const skipped = new Set(queue.skipped.map((e) => e.id));
  const inQueue = new Set(queue.entries.map((e) => e.id));
  for (const story of stories) {
    if (inQueue.has(story.id) || skipped.has(story.id)) continue;
    issues.push({
      ...story.location,
      message: `${story.id} is not in ${text.file}: not run`,
      severity: 'warning',
    });
  }
  const batches = queue.batched ? batchDependencies(queue) : new Map<string, string[]>();
  const result: Story[] = [];
  for (const entry of queueGroups(queue).flat()) {
    const story = byId.get(entry.id);
    if (!story) {
      issues.push({
        file: text.file,
        line: entry.line,
        column: 1,
        message: `${entry.id} is queued but the spec directory has no story-${entry.id}-*.md`,
        severity: 'error',
      });
      continue;
    }
    const dependsOn = story.dependsOn.filter((dep) => {
      if (inQueue.has(dep) || !byId.has(dep)) return true;
      issues.push({
        ...story.location,
        message: `${story.id} depends on ${dep}, which ${text.file} ${skipped.has(dep) ? 'skips' : 'does not name'}: not waited for`,
        severity: 'warning',
      });
      return false;
    });
    const batch = (batches.get(story.id) ?? []).filter((dep) => !dependsOn.includes(dep));
    result.push({ ...story, dependsOn: [...dependsOn, ...batch] });
  }
  return result;
}
