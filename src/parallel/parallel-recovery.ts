import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { stopLeftovers } from '../attempt/stop-leftovers.js';
import { storyBranchesPrefix, storyBranchName } from '../core/story-ref.js';
import type { StoryVerdict } from '../core/story-verdict.js';
import type { Prd } from '../core/types.js';
import type { RunEventSink } from '../events/run-event.js';
import { isGitRepo } from '../git/index.js';
import { returnToBranch } from '../git/land.js';
import { listStoryBranches } from '../git/story-branches.js';
import { removeStoryCheckout } from '../git/story-worktree.js';
import type { RunContext } from '../run/run-context.js';
import { endResolving } from '../state/race-records.js';
import type { RunState } from '../state/run-state.js';
import { markPassed } from '../state/run-state-update.js';
import { endIntegrating, endRunning } from '../state/running-attempts.js';
import { storyCheckoutDir } from './work-story.js';

/** Verified work found on a story branch, waiting to land. */
export interface WaitingStory {
  storyId: string;
  branch: string;
  verdict: StoryVerdict;
}

/**
 * A run killed while landing a story left its PRD checkout detached,
 * perhaps mid-rebase: it goes back to its branch's tip. Whether the branch
 * had already moved decides whether the story landed; if not, its verified
 * branch is still there and lands again. Runs before the workspace is
 * opened (which wants the checkout on its branch).
 */
export async function undoInterruptedLanding(state: RunState, emit: RunEventSink): Promise<RunState> {
  const landing = state.integrating;
  if (landing === undefined) return state;
  await stopLeftovers({ token: landing.token });
  if (existsSync(landing.checkout) && (await isGitRepo(landing.checkout))) {
    await returnToBranch(landing.checkout, landing.branch);
  }
  emit({ type: 'recovered', storyId: landing.storyId, action: 'integration-reset' });
  return endIntegrating(state, new Date());
}

/**
 * What a killed parallel run left of its stories: agents still running are
 * stopped; unfinished attempts are rolled back (worktree and branch
 * removed, the attempt not counted); finished stories' worktrees and
 * branches are removed; verified work not yet landed is kept, and returned
 * in the order it was verified, to land first.
 */
export async function recoverStories(
  ctx: RunContext,
  root: string,
  state: RunState,
  prd: Prd,
): Promise<{ state: RunState; waiting: WaitingStory[] }> {
  let next = state;
  for (const running of state.running ?? []) {
    await stopLeftovers({ agentPid: running.agentPid, token: running.agentToken });
  }
  if (state.resolving) {
    // A resolution cut short: its agent is stopped; the story's branch still holds verified work, which lands again.
    await stopLeftovers({ agentPid: state.resolving.agentPid, token: state.resolving.agentToken });
    next = endResolving(next, ctx.now());
  }
  const done = new Set(prd.stories.filter((s) => s.status === 'done').map((s) => s.id));
  const idOfBranch = new Map(prd.stories.map((s) => [storyBranchName(ctx.name, s.id), s.id]));
  const waiting: WaitingStory[] = [];
  const kept = new Set<string>();
  for (const branch of await listStoryBranches(root, storyBranchesPrefix(ctx.name))) {
    const storyId = branch.verdict?.storyId ?? idOfBranch.get(branch.branch);
    const dir = storyId === undefined ? {} : { dir: storyCheckoutDir(ctx.files.dir, storyId) };
    if (storyId !== undefined && done.has(storyId)) {
      if (!next.stories[storyId]?.passedAt) next = markPassed(next, storyId, { commits: [], now: ctx.now() });
      await removeStoryCheckout(root, { ...dir, branch: branch.branch });
      ctx.emit({ type: 'recovered', storyId, action: 'cleaned' });
    } else if (storyId !== undefined && branch.verdict !== null && branch.verdict.prd === ctx.name) {
      waiting.push({ storyId, branch: branch.branch, verdict: branch.verdict });
      kept.add(storyId);
      ctx.emit({ type: 'recovered', storyId, action: 'kept-verified' });
    } else {
      await removeStoryCheckout(root, { ...dir, branch: branch.branch });
      if (storyId !== undefined) ctx.emit({ type: 'recovered', storyId, action: 'rolled-back' });
    }
  }
  for (const running of state.running ?? []) {
    // A verified attempt counted; one cut short by the crash did not.
    next = endRunning(next, running.storyId, ctx.now(), !kept.has(running.storyId));
  }
  await removeStrayCheckouts(root, path.join(ctx.files.dir, 'stories'), kept, ctx);
  waiting.sort((a, b) => a.verdict.verifiedAt.localeCompare(b.verdict.verifiedAt));
  return { state: next, waiting };
}

/** Story folders no branch explains any more (a worktree half made, a branch already gone). */
async function removeStrayCheckouts(
  root: string,
  parent: string,
  kept: ReadonlySet<string>,
  ctx: RunContext,
): Promise<void> {
  const keptDirs = new Set([...kept].map((id) => storyCheckoutDir(ctx.files.dir, id)));
  let names: string[] = [];
  try {
    names = await readdir(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const dir = path.join(parent, name);
    if (!keptDirs.has(dir)) await removeStoryCheckout(root, { dir });
  }
}
