/**
 * An older Chief kept its stories' statuses in a prd.json beside the
 * prd.md. Chief today migrates such a folder when it starts
 * (internal/prd/migrate.go, `MigrateFromJSON`): for each prd.json story with
 * `passes: true` it sets `**Status:** done` in the prd.md and ticks the
 * story's boxes, for each `inProgress: true` one `**Status:** in-progress`
 * (internal/prd/markdown_writer.go, `setStoryStatusInString`), then renames
 * prd.json to prd.json.bak. A prd.json Go cannot decode into its PRD type
 * stops the migration and Chief reads the prd.md alone.
 *
 * ralph reads such a folder the way Chief will: the prd.md's text with the
 * migration applied, computed here on text (the files are not touched).
 * One difference: an `inProgress: true` does not override a status the
 * prd.md states. ralph writes its statuses into the prd.md and leaves the
 * prd.json as it is, so a story it finished would otherwise read as in
 * progress again from the stale prd.json, and be worked on forever.
 */

export interface ChiefMigration {
  /** The prd.md's text as Chief's migration leaves it. */
  text: string;
  /** The stories whose status came from the prd.json, in its order. */
  migrated: { id: string; status: 'done' | 'in-progress' }[];
}

export type ChiefMigrationResult = ({ ok: true } & ChiefMigration) | { ok: false; reason: string };

const STATUS_LINE = /^\*\*Status:\*\*\s*(.+)$/;

/** Go's `regexp.QuoteMeta`. */
const quoteMeta = (text: string): string => text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');

/**
 * What Go's `json.Unmarshal` into Chief's `PRD` refuses: a field of the
 * wrong type (null is always taken, as the zero value). Unknown fields
 * are ignored, as Go does.
 */
function goDecodeProblem(data: unknown): string | undefined {
  if (data === null) return undefined;
  if (typeof data !== 'object' || Array.isArray(data)) return 'the top level is not an object';
  const top = data as Record<string, unknown>;
  const wrong = (value: unknown, type: string): boolean =>
    value !== undefined && value !== null && typeof value !== type;
  if (wrong(top.project, 'string')) return '"project" is not a string';
  if (wrong(top.description, 'string')) return '"description" is not a string';
  const stories = top.userStories;
  if (stories === undefined || stories === null) return undefined;
  if (!Array.isArray(stories)) return '"userStories" is not an array';
  for (const [i, story] of stories.entries()) {
    if (story === null) continue;
    if (typeof story !== 'object' || Array.isArray(story)) return `userStories[${i}] is not an object`;
    const s = story as Record<string, unknown>;
    for (const key of ['id', 'title', 'description'] as const) {
      if (wrong(s[key], 'string')) return `userStories[${i}].${key} is not a string`;
    }
    if (wrong(s.priority, 'number')) return `userStories[${i}].priority is not a number`;
    for (const key of ['passes', 'inProgress'] as const) {
      if (wrong(s[key], 'boolean')) return `userStories[${i}].${key} is not true or false`;
    }
    const criteria = s.acceptanceCriteria;
    if (criteria !== undefined && criteria !== null) {
      if (!Array.isArray(criteria) || criteria.some((c) => c !== null && typeof c !== 'string'))
        return `userStories[${i}].acceptanceCriteria is not a list of strings`;
    }
  }
  return undefined;
}

/**
 * Chief's `setStoryStatusInString`; undefined when no `###`/`####` heading
 * has that id, or (ralph's one difference) it would set in-progress over a
 * written status.
 */
function setStoryStatus(lines: string[], id: string, status: string): string[] | undefined {
  const heading = new RegExp(`^#{3,4}\\s+${quoteMeta(id)}:\\s+`);
  const start = lines.findIndex((line) => heading.test(line.trim()));
  if (start < 0) return undefined;
  let end = lines.findIndex((line, i) => {
    if (i <= start) return false;
    const trimmed = line.trim();
    return trimmed.startsWith('## ') || trimmed.startsWith('### ') || trimmed.startsWith('#### ');
  });
  if (end < 0) end = lines.length;
  const next = [...lines];
  const statusAt = next.slice(start + 1, end).findIndex((line) => STATUS_LINE.test(line.trim()));
  if (statusAt >= 0 && status === 'in-progress') return undefined;
  if (statusAt >= 0) {
    next[start + 1 + statusAt] = `**Status:** ${status}`;
  } else {
    next.splice(start + 1, 0, `**Status:** ${status}`);
    end++;
  }
  if (status === 'done') {
    for (let i = start + 1; i < end; i++) next[i] = (next[i] ?? '').replace('- [ ]', '- [x]');
  }
  return next;
}

/** The prd.md's text after Chief's migration of the prd.json beside it. */
export function migrateChiefStatuses(mdText: string, jsonText: string): ChiefMigrationResult {
  let data: unknown;
  try {
    data = JSON.parse(jsonText);
  } catch (error) {
    return { ok: false, reason: `it is not valid JSON (${error instanceof Error ? error.message : error})` };
  }
  const problem = goDecodeProblem(data);
  if (problem !== undefined) return { ok: false, reason: problem };
  const stories = ((data as { userStories?: unknown } | null)?.userStories ?? []) as (Record<
    string,
    unknown
  > | null)[];
  let lines = mdText.split('\n');
  const migrated: ChiefMigration['migrated'] = [];
  for (const story of stories) {
    const status = story?.passes === true ? 'done' : story?.inProgress === true ? 'in-progress' : undefined;
    if (status === undefined) continue;
    const id = typeof story?.id === 'string' ? story.id : '';
    const next = setStoryStatus(lines, id, status);
    // A story no longer in the prd.md is skipped, as Chief skips it.
    if (next === undefined) continue;
    lines = next;
    migrated.push({ id, status });
  }
  return { ok: true, text: lines.join('\n'), migrated };
}
