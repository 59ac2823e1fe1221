import type { ValidationIssue } from '../core/validation-issue.js';
import { normaliseSpecId } from './parse-spec-file.js';

/**
 * `.ralph/stories.txt`, the story queue that sits beside a spec directory
 * in the project the spec format comes from (ralphetamine's
 * lib/stories.sh):
 *
 *     # [batch:1] — foundation
 *     1.1 | Create the schema
 *     x 1.2 | Deferred            <- `x ` skips a story
 *     # [batch:2]
 *     2.1 | List view
 *
 * The stories above the first `# [batch:N]` comment run first; then each
 * batch, in the order its number first appears, all of its members (every
 * story under that number, wherever in the file) as one group after the
 * group before. `[batch:0]` is a group like any other, not the stories
 * above the first marker. Other `#` lines are comments.
 */
export interface StoryQueue {
  entries: QueueEntry[];
  /** Ids written with a leading `x`. */
  skipped: QueueEntry[];
  /** Whether any `[batch:N]` comment groups the stories. */
  batched: boolean;
  issues: ValidationIssue[];
}

export interface QueueEntry {
  id: string;
  /** 1-based line in the queue file. */
  line: number;
  /** The `[batch:N]` above it; undefined above the first marker. */
  batch: string | undefined;
}

const BATCH = /^\s*#\s*\[batch:(\d+(?:\.\d+)*)\]/;

export function parseStoryQueue(text: string, file: string): StoryQueue {
  const queue: StoryQueue = { entries: [], skipped: [], batched: false, issues: [] };
  const seen = new Map<string, number>();
  let batch: string | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const mark = BATCH.exec(raw);
    if (mark?.[1] !== undefined) {
      batch = mark[1];
      queue.batched = true;
      return;
    }
    if (raw.trim() === '' || /^\s*#/.test(raw)) return;
    const skip = /^\s*x\s/.test(raw);
    const id = normaliseSpecId((skip ? raw.replace(/^\s*x\s/, '') : raw).split('|')[0] ?? '');
    if (id === '') return;
    const first = seen.get(id);
    if (first !== undefined) {
      queue.issues.push({
        file,
        line,
        column: 1,
        message: `${id} is queued twice (first at line ${first})`,
        severity: 'error',
      });
      return;
    }
    seen.set(id, line);
    (skip ? queue.skipped : queue.entries).push({ id, line, batch });
  });
  return queue;
}

/**
 * The queue's groups in the order they run: the stories above the first
 * batch marker, then each batch in the order its number first appears.
 */
export function queueGroups(queue: StoryQueue): QueueEntry[][] {
  const groups = new Map<string | undefined, QueueEntry[]>();
  const unbatched = queue.entries.filter((e) => e.batch === undefined);
  if (unbatched.length > 0) groups.set(undefined, unbatched);
  for (const entry of queue.entries) {
    if (entry.batch === undefined) continue;
    const group = groups.get(entry.batch) ?? [];
    groups.set(entry.batch, [...group, entry]);
  }
  return [...groups.values()];
}

/** What the batches ask: each story waits for every story of the group before its own. */
export function batchDependencies(queue: StoryQueue): Map<string, string[]> {
  const deps = new Map<string, string[]>();
  queueGroups(queue).forEach((group, i, groups) => {
    const previous = (groups[i - 1] ?? []).map((e) => e.id);
    for (const entry of group) deps.set(entry.id, previous);
  });
  return deps;
}
