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
 * Stories run in the queue's order; a `# [batch:N]` comment starts a group
 * that runs after the groups above it (stories before the first one are
 * batch 0). Other `#` lines are comments.
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
  batch: string;
}

const BATCH = /^\s*#\s*\[batch:(\d+(?:\.\d+)*)\]/;

export function parseStoryQueue(text: string, file: string): StoryQueue {
  const queue: StoryQueue = { entries: [], skipped: [], batched: false, issues: [] };
  const seen = new Map<string, number>();
  let batch = '0';
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
 * What the batches ask: each story waits for every story of the batch
 * before its own (batches in the order they first appear).
 */
export function batchDependencies(queue: StoryQueue): Map<string, string[]> {
  const order: string[] = [];
  const members = new Map<string, string[]>();
  for (const entry of queue.entries) {
    if (!members.has(entry.batch)) {
      members.set(entry.batch, []);
      order.push(entry.batch);
    }
    members.get(entry.batch)?.push(entry.id);
  }
  const deps = new Map<string, string[]>();
  order.forEach((batch, i) => {
    const previous = i > 0 ? (members.get(order[i - 1] ?? '') ?? []) : [];
    for (const id of members.get(batch) ?? []) deps.set(id, previous);
  });
  return deps;
}
