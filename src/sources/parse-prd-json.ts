import { getNodeValue } from 'jsonc-parser';
import { z } from 'zod';
import type { Prd, SourceLocation, Story, StoryStatus } from '../core/types.js';
import { formatPath, hasErrors, type ValidationIssue } from '../core/validation-issue.js';
import { jsonSyntaxIssue } from './json-syntax.js';
import { locateJsonPath, MAX_JSON_DEPTH, parseJsonTree, tooDeepAt } from './json-tree.js';
import { type PrdJsonStory, prdJsonStorySchema, prdJsonTopSchema } from './prd-json-schema.js';
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
  const { root, errors } = parseJsonTree(text);
  if (errors.length > 0 || !root) return { ok: false, issues: jsonSyntaxIssue(text, file, errors) };
  const locate = (path: Path) => locateJsonPath(text, root, path);
  const at = (path: Path): SourceLocation => ({ file, ...locate(path) });
  const issueAt = (path: Path, message: string, severity: ValidationIssue['severity']): ValidationIssue => ({
    ...at(path),
    path: formatPath(path),
    message,
    severity,
  });

  const top = prdJsonTopSchema.safeParse(getNodeValue(root), { error: shortZodMessages });
  if (!top.success) return { ok: false, issues: toValidationIssues(top.error.issues, file, locate) };
  const data = top.data;
  const issues: ValidationIssue[] = [];
  const project = data.project ?? data.name;
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
  data.userStories.forEach((raw, index) => {
    const path = ['userStories', index] as const;
    const parsed = prdJsonStorySchema.safeParse(raw, { error: shortZodMessages });
    if (!parsed.success) {
      const within = parsed.error.issues.map((i) => ({ ...i, path: [...path, ...i.path] }));
      issues.push(...toValidationIssues(within, file, locate));
      const lenient = lenientStory(raw, index, at(path));
      if (lenient) stories.push(lenient);
      return;
    }
    const story = parsed.data;
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
    stories.push(toStory(story, index, at(path)));
  });

  const prd: Prd = {
    format: 'prd-json',
    path: file,
    project: project ?? '',
    ...(data.branchName !== undefined
      ? { branchName: data.branchName, branchLocation: at(['branchName']) }
      : {}),
    ...(data.description !== undefined ? { description: data.description } : {}),
    stories,
  };
  if (hasErrors(issues)) return { ok: false, issues, partial: prd };
  return { ok: true, prd, warnings: issues };
}

function toStory(story: PrdJsonStory, index: number, location: SourceLocation): Story {
  const criteria = story.acceptanceCriteria ?? [];
  const ticks = story.acceptanceCriteriaChecked;
  return {
    id: story.id,
    title: story.title,
    description: story.description ?? '',
    acceptanceCriteria: criteria,
    ...(ticks !== undefined && ticks.length === criteria.length ? { checkedCriteria: ticks } : {}),
    priority: story.priority,
    status: statusOfJsonStory(story),
    dependsOn: story.dependsOn ?? [],
    ...(story.notes !== undefined ? { notes: story.notes } : {}),
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
