import { createHash } from 'node:crypto';

/**
 * Where a parallel run keeps one story's work: a branch in a namespace of
 * its own, `ralph-stories/<prd>/<story>`. Not `ralph/<prd>/<story>`: the PRD
 * branch is `ralph/<prd>` by default, and git cannot hold both the ref
 * `refs/heads/ralph/<prd>` and the folder `refs/heads/ralph/<prd>/` that a
 * story branch under it would need. PRD names have no `/` and the story part
 * is one path component, so story branches of different PRDs can never clash
 * with each other either.
 */
export const STORY_BRANCH_PREFIX = 'ralph-stories';

/** A story id as it is when safe as a ref component and a folder name. */
const SAFE = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/**
 * A story id as one ref component and folder name. Ids that are already safe
 * (`US-001`, `story-1.2`) are kept as they are; any other is made readable
 * and suffixed with a hash of the real id, so two ids never share a branch
 * (`US 1` and `US_1` differ) and nothing from a task file can climb out of
 * its folder or break a ref name.
 */
export function storyRefComponent(storyId: string): string {
  if (SAFE.test(storyId) && !storyId.endsWith('.lock')) return storyId;
  const readable =
    storyId
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40) || 'story';
  const hash = createHash('sha256').update(storyId).digest('hex').slice(0, 10);
  return `${readable}-${hash}`;
}

/** The branch a story's attempts are made on: `ralph-stories/<prd>/<story>`. */
export const storyBranchName = (prdName: string, storyId: string): string =>
  `${STORY_BRANCH_PREFIX}/${prdName}/${storyRefComponent(storyId)}`;

/** Every story branch of a PRD lies under this ref prefix. */
export const storyBranchesPrefix = (prdName: string): string =>
  `refs/heads/${STORY_BRANCH_PREFIX}/${prdName}/`;

/** Whether a PRD branch would collide with the story branches' namespace. */
export const isInStoryNamespace = (branch: string): boolean =>
  branch === STORY_BRANCH_PREFIX || branch.startsWith(`${STORY_BRANCH_PREFIX}/`);
