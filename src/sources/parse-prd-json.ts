import { getNodeValue, type Node } from 'jsonc-parser';
import { z } from 'zod';
import { ballotsToBoxes } from '../core/criteria-count.js';
import type { Prd, SourceLocation, Story, StoryStatus } from '../core/types.js';
import { formatPath, hasErrors, type ValidationIssue } from '../core/validation-issue.js';
import { originalsOf } from './json-originals.js';
import { jsonSyntaxIssue } from './json-syntax.js';
import { type TopOffsets, topOffsets } from './json-top-offsets.js';
import { locateJsonPath, MAX_JSON_DEPTH, parseJsonTree, tooDeepAt } from './json-tree.js';
import { isRecord, readAliases } from './prd-json-aliases.js';
import {
  KNOWN_STORY_FIELDS,
  type PrdJsonStory,
  prdJsonStorySchema,
  prdJsonTopSchema,
} from './prd-json-schema.js';
import type { ReadResult } from './task-source.js';
import { positionAt } from './text-position.js';
import { shortZodMessages, toValidationIssues } from './zod-issues.js';

export function statusOfJsonStory(story: { passes: boolean; inProgress?: boolean | undefined }): StoryStatus {
  if (story.passes) return 'done';
  return story.inProgress ? 'in-progress' : 'todo';
}

const EXAMPLE_STORY =
  '{"id": "US-001", "title": "…", "acceptanceCriteria": ["…"], "priority": 1, "passes": false}';

type Path = readonly (string | number)[];

/**
 * Parses a prd.json (strict JSON) into the domain model. Pure: `file` is
 * only used in messages. Every story is checked, so all schema problems are
 * reported at once, and the stories that did parse come back as `partial`.
 */
export function parsePrdJson(text: string, file: string): ReadResult {
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    const message = `JSON nested more than ${MAX_JSON_DEPTH} levels deep; a task file never needs that`;
    return { ok: false, issues: [{ file, ...positionAt(text, deep), message, severity: 'error' }] };
  }
  const read = readJson(text);
  if (!read.ok) return { ok: false, issues: jsonSyntaxIssue(text, file, read.errors) };
  const { offsets } = read;
  const locate = (path: Path) => {
    const offset = offsets && knownOffset(offsets, path);
    return offset === undefined ? locateJsonPath(text, read.root(), path) : positionAt(text, offset);
  };
  const at = (path: Path): SourceLocation => ({ file, ...locate(path) });
  const issueAt = (path: Path, message: string, severity: ValidationIssue['severity']): ValidationIssue => ({
    ...at(path),
    path: formatPath(path),
    message,
    severity,
  });

  const top = prdJsonTopSchema.safeParse(read.value, { error: shortZodMessages });
  if (!top.success) return { ok: false, issues: toValidationIssues(top.error.issues, file, locate) };
  const data = top.data;
  const issues: ValidationIssue[] = [];
  const projectKey = (['project', 'name', 'productName', 'projectName'] as const).find(
    (k) => typeof data[k] === 'string',
  );
  const project = projectKey === undefined ? undefined : String(data[projectKey]);
  if (project === undefined) {
    issues.push(issueAt(['project'], 'required string is missing (ralph-tui\'s "name" works too)', 'error'));
  }
  if (data.userStories.length === 0) {
    issues.push(
      issueAt(
        ['userStories'],
        `no stories found: the list is empty; expected entries like ${EXAMPLE_STORY}`,
        'error',
      ),
    );
  }

  const stories: Story[] = [];
  const ids = new Set(data.userStories.map((raw) => (isRecord(raw) ? raw.id : undefined)));
  const storyIds = new Set([...ids].filter((id): id is string => typeof id === 'string'));
  // Chief's rule for a story without a priority: right after the highest so far (file order when none has one).
  let highest = 0;
  data.userStories.forEach((raw, index) => {
    const path = ['userStories', index] as const;
    const aliased = readAliases(raw, storyIds);
    for (const note of aliased.notes) issues.push(issueAt([...path, note.key], note.message, 'warning'));
    const parsed = parseStory(aliased.story);
    if (!parsed.success) {
      const within = parsed.error.issues.map((i) => ({ ...i, path: [...path, ...i.path] }));
      issues.push(...toValidationIssues(within, file, locate));
      const lenient = lenientStory(aliased.story, index, at(path));
      if (lenient) stories.push(lenient);
      return;
    }
    const story = parsed.data;
    if (story.title === undefined) {
      issues.push(issueAt([...path], `${story.id} has no "title": its id stands in for it`, 'warning'));
    }
    if (story.acceptanceCriteria === undefined) {
      issues.push(
        issueAt(
          [...path, 'acceptanceCriteria'],
          `${story.id} has no "acceptanceCriteria": nothing says when it is done`,
          'warning',
        ),
      );
    }
    const ticks = story.acceptanceCriteriaChecked;
    const criteria = story.acceptanceCriteria ?? [];
    if (ticks !== undefined && ticks.length !== criteria.length) {
      issues.push(
        issueAt(
          [...path, 'acceptanceCriteriaChecked'],
          `${ticks.length} ticks for ${criteria.length} acceptance criteria; the ticks are ignored`,
          'warning',
        ),
      );
    }
    const priority = story.priority ?? highest + 1;
    highest = Math.max(highest, priority);
    const other = otherFields(raw, (key) => KNOWN_STORY_FIELDS.has(key) || aliased.consumed.has(key));
    stories.push(toStory(story, priority, other, index, at(path)));
  });

  const topOther = otherFields(read.value, (key) => TOP_FIELDS.has(key) || key === projectKey);
  const prd: Prd = {
    format: 'prd-json',
    path: file,
    project: project ?? '',
    ...(data.branchName !== undefined
      ? { branchName: data.branchName, branchLocation: at(['branchName']) }
      : {}),
    ...(data.description !== undefined ? { description: data.description } : {}),
    stories,
    ...(topOther ? { otherFields: topOther } : {}),
    ...(data.markdownSections && data.markdownSections.length > 0 ? { sections: data.markdownSections } : {}),
  };
  // The file's own objects, so a conversion through a prd.md gives them back as written.
  if (isRecord(read.value)) prd.jsonOriginals = originalsOf(read.value, rawStories(read.value), prd);
  if (hasErrors(issues)) return { ok: false, issues, partial: prd };
  return { ok: true, prd, warnings: issues };
}

type JsonRead =
  | { ok: true; value: unknown; offsets: TopOffsets | undefined; root: () => Node | undefined }
  | { ok: false; errors: Parameters<typeof jsonSyntaxIssue>[2] };

/**
 * The file's value, and where its stories start. Valid JSON takes the
 * native parser and one scan for the offsets; the syntax tree is built
 * only to report a syntax error or to locate an issue. A text that names
 * `__proto__` (perhaps escaped) takes the tree's way throughout, which
 * reads that key as the tree's value builder always has.
 */
function readJson(text: string): JsonRead {
  let tree: ReturnType<typeof parseJsonTree> | undefined;
  const parsedTree = () => {
    tree ??= parseJsonTree(text);
    return tree;
  };
  if (!/__proto__|\\u00[2-7]/.test(text)) {
    try {
      const value: unknown = JSON.parse(text);
      return { ok: true, value, offsets: topOffsets(text), root: () => parsedTree().root };
    } catch {
      // Not strict JSON: the tree reports the error where it is.
    }
  }
  const { root, errors } = parsedTree();
  if (errors.length > 0 || !root) return { ok: false, errors };
  return { ok: true, value: getNodeValue(root), offsets: undefined, root: () => root };
}

/** The offset of a story or of the branch name, when the scan found it. */
function knownOffset(offsets: TopOffsets, path: Path): number | undefined {
  if (path.length === 1 && path[0] === 'branchName') return offsets.branchName;
  if (path.length === 2 && path[0] === 'userStories' && typeof path[1] === 'number') {
    return offsets.stories?.[path[1]];
  }
  return undefined;
}

/**
 * A story through its schema. Parsing with a custom message map is several
 * times slower per call in zod, so the map is only passed when the story
 * has issues to word: the data of a valid story is the same either way.
 */
function parseStory(raw: unknown) {
  const fast = prdJsonStorySchema.safeParse(raw);
  return fast.success ? fast : prdJsonStorySchema.safeParse(raw, { error: shortZodMessages });
}

const rawStories = (top: Record<string, unknown>): unknown[] =>
  Array.isArray(top.userStories) ? top.userStories : [];

/** The top-level fields ralph reads (the project's key is decided per file). */
const TOP_FIELDS: ReadonlySet<string> = new Set([
  'branchName',
  'description',
  'userStories',
  'markdownSections',
]);

/** The fields of an object that `known` does not claim, in their order; undefined when there are none. */
function otherFields(value: unknown, known: (key: string) => boolean): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value).filter(([key]) => !known(key));
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function toStory(
  story: PrdJsonStory,
  priority: number,
  other: Record<string, unknown> | undefined,
  index: number,
  location: SourceLocation,
): Story {
  const criteria = (story.acceptanceCriteria ?? []).map(ballotsToBoxes);
  const ticks = story.acceptanceCriteriaChecked;
  return {
    id: story.id,
    title: story.title ?? story.id,
    description: story.description ?? '',
    acceptanceCriteria: criteria,
    ...(ticks !== undefined && ticks.length === criteria.length ? { checkedCriteria: ticks } : {}),
    priority,
    status: statusOfJsonStory(story),
    dependsOn: story.dependsOn ?? [],
    ...(story.notes !== undefined ? { notes: story.notes } : {}),
    ...(other ? { otherFields: other } : {}),
    order: index + 1,
    location,
  };
}

const lenientSchema = z
  .object({
    id: z.string().min(1),
    title: z.unknown().optional(),
    priority: z.unknown().optional(),
    dependsOn: z.unknown().optional(),
  })
  .loose();

/** What the graph checks need from a story that failed the schema: its id and dependencies. */
function lenientStory(raw: unknown, index: number, location: SourceLocation): Story | undefined {
  const parsed = lenientSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const { id, title, priority, dependsOn } = parsed.data;
  const deps = Array.isArray(dependsOn) ? dependsOn : [];
  return {
    id,
    title: typeof title === 'string' ? title : '',
    description: '',
    acceptanceCriteria: [],
    priority: typeof priority === 'number' ? priority : 0,
    status: 'todo',
    dependsOn: deps.filter((d): d is string => typeof d === 'string'),
    order: index + 1,
    location,
  };
}
