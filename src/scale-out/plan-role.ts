import { planShared, type SharedPlan, type SharedStory } from '../core/shared-plan.js';
import { storyBranchName } from '../core/story-ref.js';
import type { Prd } from '../core/types.js';
import type { Role } from './open-role.js';
import { type SharedStoryBranch, sharedStoryBranches } from './shared-remote.js';

export interface PlanOutput extends SharedPlan {
  prd: string;
  branch: string;
}

/** `ralph plan`: the stories a job matrix can take now, from the remote's PRD branch and story branches. */
export async function planRole(role: Role, cap: number): Promise<PlanOutput> {
  const { name } = role.ctx;
  const shared = sharedStories(role.prd, name, await sharedStoryBranches(role.root, name));
  return { prd: name, branch: role.prdBranch, ...planShared(role.prd, [...shared.values()], cap) };
}

/**
 * The PRD's stories that have a branch on the remote, by id. A branch counts
 * for a story only under the story's own name, and its verdict or setback
 * only if it names this PRD and that story.
 */
export function sharedStories(
  prd: Prd,
  prdName: string,
  branches: readonly SharedStoryBranch[],
): Map<string, SharedStory & { branch: SharedStoryBranch }> {
  const byBranch = new Map(branches.map((b) => [b.branch, b]));
  const shared = new Map<string, SharedStory & { branch: SharedStoryBranch }>();
  for (const story of prd.stories) {
    const branch = byBranch.get(storyBranchName(prdName, story.id));
    if (!branch) continue;
    const names = (r: { prd: string; storyId: string } | null) =>
      r?.prd === prdName && r.storyId === story.id;
    const setback = names(branch.setback) ? branch.setback : null;
    shared.set(story.id, {
      storyId: story.id,
      verified: names(branch.verdict),
      parked: setback?.parked === true,
      ...(setback?.requeued ? { requeued: { files: setback.files ?? [] } } : {}),
      branch,
    });
  }
  return shared;
}
