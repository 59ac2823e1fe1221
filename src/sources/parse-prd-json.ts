import { getNodeValue } from 'jsonc-parser';
import type { Prd, Story, StoryStatus } from '../core/types.js';
import { jsonSyntaxIssue } from './json-syntax.js';
import { locateJsonPath, parseJsonTree } from './json-tree.js';
import { type PrdJson, prdJsonSchema } from './prd-json-schema.js';
import type { ReadResult } from './task-source.js';
import { shortZodMessages, toValidationIssues } from './zod-issues.js';

type JsonStory = PrdJson['userStories'][number];

export function statusOfJsonStory(story: { passes: boolean; inProgress?: boolean | undefined }): StoryStatus {
  if (story.passes) return 'done';
  return story.inProgress ? 'in-progress' : 'todo';
}

/** Parses a prd.json (strict JSON) into the domain model. Pure: `file` is only used in messages. */
export function parsePrdJson(text: string, file: string): ReadResult {
  const { root, errors } = parseJsonTree(text);
  if (errors.length > 0 || !root) return { ok: false, issues: jsonSyntaxIssue(text, file, errors) };

  const parsed = prdJsonSchema.safeParse(getNodeValue(root), { error: shortZodMessages });
  if (!parsed.success) {
    const locate = (path: readonly (string | number)[]) => locateJsonPath(text, root, path);
    return { ok: false, issues: toValidationIssues(parsed.error.issues, file, locate) };
  }

  const data = parsed.data;
  const stories = data.userStories.map((story, index): Story => {
    const at = locateJsonPath(text, root, ['userStories', index]);
    return toStory(story, index, { file, ...at });
  });
  const prd: Prd = {
    format: 'prd-json',
    path: file,
    project: data.project,
    ...(data.branchName !== undefined ? { branchName: data.branchName } : {}),
    ...(data.description !== undefined ? { description: data.description } : {}),
    stories,
  };
  return { ok: true, prd, warnings: [] };
}

function toStory(story: JsonStory, index: number, location: Story['location']): Story {
  return {
    id: story.id,
    title: story.title,
    description: story.description ?? '',
    acceptanceCriteria: story.acceptanceCriteria,
    priority: story.priority,
    status: statusOfJsonStory(story),
    dependsOn: story.dependsOn ?? [],
    ...(story.notes !== undefined ? { notes: story.notes } : {}),
    order: index + 1,
    location,
  };
}
