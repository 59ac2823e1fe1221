/**
 * What an edit did to the stories that were already there. ralph's records,
 * commits and dependencies refer to story ids, so an edit must not move an
 * existing story to another id or give a story with progress to a different
 * story. Statuses belong to the tool: whatever the agent wrote, the previous
 * ones are put back. Pure.
 */
import { sameStoryTitle, titleKey } from '../core/story-quality.js';
import type { Story, StoryStatus } from '../core/types.js';
import type { ValidationIssue } from '../core/validation-issue.js';

export interface KnownStory {
  id: string;
  title: string;
  status: StoryStatus;
}

export interface VersionComparison {
  /** Id changes that lose track of a story; the edit cannot be accepted with these. */
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
  /** The status each story must have: the previous one, or todo for a new story. */
  statuses: Map<string, StoryStatus>;
  added: string[];
  removed: string[];
}

const hasProgress = (s: KnownStory): boolean => s.status !== 'todo';

export function compareVersions(previous: readonly KnownStory[], next: readonly Story[]): VersionComparison {
  const result: VersionComparison = { errors: [], warnings: [], statuses: new Map(), added: [], removed: [] };
  const nextById = new Map(next.map((s) => [s.id, s]));
  const previousById = new Map(previous.map((s) => [s.id, s]));
  const previousIds = new Set(previousById.keys());
  /** A story still named by its own id (same id, same story as before). */
  const keepsOwnId = (s: Story): boolean => {
    const before = previousById.get(s.id);
    return before !== undefined && sameStoryTitle(before.title, s.title);
  };
  const at = (story: Story, message: string, severity: ValidationIssue['severity']): ValidationIssue => ({
    file: story.location.file,
    ...(story.location.line !== undefined ? { line: story.location.line } : {}),
    ...(story.location.column !== undefined ? { column: story.location.column } : {}),
    path: story.id,
    message,
    severity,
  });
  const file = next[0]?.location.file ?? '';

  for (const old of previous) {
    const sameId = nextById.get(old.id);
    if (sameId && sameStoryTitle(old.title, sameId.title)) {
      result.statuses.set(old.id, old.status);
      continue;
    }
    // The same story under an id that was not its own: renumbered.
    const moved = next.find(
      (s) => s.id !== old.id && !keepsOwnId(s) && titleKey(s.title) === titleKey(old.title),
    );
    if (moved) {
      result.errors.push(
        at(
          moved,
          `${moved.id} "${moved.title}" is the existing story ${old.id}: keep its id ${old.id}, and give new stories new ids`,
          'error',
        ),
      );
      continue;
    }
    if (sameId) {
      const message = `${old.id} was "${old.title}" (${old.status}) and is now "${sameId.title}": an existing id must keep naming the same story; give a new story a new id`;
      // Reusing the id of a story with progress would hand that progress to another story.
      result[hasProgress(old) ? 'errors' : 'warnings'].push(
        at(sameId, message, hasProgress(old) ? 'error' : 'warning'),
      );
      result.statuses.set(old.id, hasProgress(old) ? old.status : 'todo');
      continue;
    }
    result.removed.push(old.id);
    if (hasProgress(old)) {
      result.errors.push({
        file,
        path: old.id,
        message: `${old.id} "${old.title}" is ${old.status} and was removed: a story with progress must stay in the PRD`,
        severity: 'error',
      });
    }
  }
  for (const story of next) {
    if (previousIds.has(story.id)) continue;
    result.added.push(story.id);
    result.statuses.set(story.id, 'todo');
  }
  return result;
}

/**
 * The id a new story takes: one past the highest number among ids of the most
 * common `<prefix><number>` shape (`US-007` -> `US-008`), so ids of deleted
 * stories are never handed out again within that numbering.
 */
export function nextFreeId(ids: readonly string[]): string {
  const shapes = new Map<string, { count: number; max: number; width: number }>();
  for (const id of ids) {
    const m = /^(.*?)(\d+)$/.exec(id);
    if (!m?.[2]) continue;
    const prefix = m[1] ?? '';
    const shape = shapes.get(prefix) ?? { count: 0, max: 0, width: m[2].length };
    shapes.set(prefix, {
      count: shape.count + 1,
      max: Math.max(shape.max, Number(m[2])),
      width: Math.max(shape.width, m[2].length),
    });
  }
  let best: [string, { count: number; max: number; width: number }] | undefined;
  for (const entry of shapes) if (!best || entry[1].count > best[1].count) best = entry;
  if (!best) return 'US-001';
  const [prefix, { max, width }] = best;
  let n = max + 1;
  const taken = new Set(ids);
  while (taken.has(`${prefix}${String(n).padStart(width, '0')}`)) n += 1;
  return `${prefix}${String(n).padStart(width, '0')}`;
}
