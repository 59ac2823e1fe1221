import { integrationOrder, planShared } from '../core/shared-plan.js';
import { setbackFor } from '../core/story-setback.js';
import type { StoryVerdict } from '../core/story-verdict.js';
import { git } from '../git/index.js';
import { returnToBranch } from '../git/land.js';
import { refSha } from '../git/story-branches.js';
import { readTaskFile } from '../loop/read-task-file.js';
import { createRunHooks } from '../loop/run-bounds.js';
import { landStory } from '../parallel/land-story.js';
import { iterationLogPath } from '../state/layout.js';
import { markPassed } from '../state/run-state-update.js';
import { endIntegrating, startIntegrating } from '../state/running-attempts.js';
import type { Role } from './open-role.js';
import { sharedStories } from './plan-role.js';
import {
  fetchShared,
  pushSetback,
  pushWithLease,
  SharedRemoteError,
  type SharedStoryBranch,
  sharedStoryBranches,
  sharedTip,
  syncPrdBranch,
} from './shared-remote.js';

export interface IntegrateOutcome {
  /** Landed by this run, in order. */
  landed: string[];
  /** Verified work the PRD branch could not take (conflict, gates): sent back to be worked again. */
  rejected: string[];
  /** Stopped by an interrupt before the queue was empty. */
  aborted: boolean;
  /** After this run: stories not landed, and what a next round would do. */
  remaining: number;
  next: 'pull-request' | 'dispatch' | 'stop';
}

type Candidate = { storyId: string; verifiedAt: string; branch: SharedStoryBranch; verdict: StoryVerdict };

/**
 * `ralph integrate`: the merge queue over the remote. Each round fetches,
 * takes the first verified story branch in dependency order, lands it on
 * the PRD checkout (`landStory`: rebase onto the tip, gates, the pass
 * recorded), and pushes the PRD branch with a lease on the tip it landed
 * on: if another integrator moved it meanwhile, nothing of ours is on it
 * and the round starts over on the new tip, where the task file says
 * whether the story is already in. Landed story branches are deleted on the
 * remote; rejected ones get a setback, so the story is worked again from
 * the new tip, with what went wrong in its prompt.
 */
export async function integrateRole(role: Role): Promise<IntegrateOutcome> {
  const { ctx, root, prdBranch, store } = role;
  const landed: string[] = [];
  const rejected: string[] = [];
  const hooks = createRunHooks(ctx, (e) => ctx.emit({ ...e, worker: 'merge' }));
  let aborted = false;
  try {
    for (let round = 0; ; round++) {
      if (round > 0) {
        await fetchShared(root, prdBranch, ctx.name);
        await syncPrdBranch(root, prdBranch);
      }
      if (ctx.stopSignal.aborted || ctx.killSignal.aborted) {
        aborted = true;
        break;
      }
      const prd = await readTaskFile(ctx);
      const shared = sharedStories(prd, ctx.name, await sharedStoryBranches(root, ctx.name));
      const done = new Set(prd.stories.filter((s) => s.status === 'done').map((s) => s.id));
      // Verified branches of stories already on the PRD branch: landed by someone, left behind.
      for (const [id, s] of shared) {
        if (done.has(id) && s.branch.verdict) await pushWithLease(root, s.branch.branch, null, s.branch.tip);
      }
      const candidates: Candidate[] = [...shared.values()].flatMap((s) =>
        s.verified && s.branch.verdict
          ? [
              {
                storyId: s.storyId,
                verifiedAt: s.branch.verdict.verifiedAt,
                branch: s.branch,
                verdict: s.branch.verdict,
              },
            ]
          : [],
      );
      const next = integrationOrder(prd, candidates)[0];
      if (next === undefined) break;
      const story = prd.stories.find((s) => s.id === next.storyId);
      if (!story) break;
      const tipBefore = await sharedTip(root, prdBranch);
      const emit = (event: Parameters<typeof ctx.emit>[0]) =>
        ctx.emit({ ...event, worker: 'merge', storyId: event.storyId ?? story.id });
      const iteration = store.current.iteration;
      emit({
        type: 'integration-started',
        storyId: story.id,
        onto: prdBranch,
        queued: candidates.length - 1,
      });
      const result = await landStory({
        ctx: { ...ctx, emit },
        prdBranch,
        story,
        verdict: next.verdict,
        iteration,
        emit,
        began: async (tip, token) => {
          await store.update((s) =>
            startIntegrating(s, {
              storyId: story.id,
              checkout: ctx.cwd,
              branch: prdBranch,
              tipBefore: tip,
              token,
              startedAt: ctx.now().toISOString(),
            }),
          );
        },
      });
      await store.update((s) => endIntegrating(s, ctx.now()));
      if (result.kind === 'aborted') {
        aborted = true;
        break;
      }
      if (result.kind === 'already-landed') {
        await pushWithLease(root, next.branch.branch, null, next.branch.tip);
        continue;
      }
      if (result.kind === 'rejected') {
        const attempts = next.verdict.attempt;
        const parked = attempts >= ctx.limits.maxRetries;
        // In place of the verdict, only if it is still there: another integrator may have sent it back already.
        const sentBack = await pushSetback(root, next.branch.branch, {
          parent: await currentTip(root, prdBranch),
          expected: next.branch.tip,
          setback: setbackFor(
            { prd: ctx.name, storyId: story.id, attempts, parked, at: ctx.now() },
            result.failure,
          ),
        });
        if (!sentBack.ok || !sentBack.changed) continue;
        emit({
          type: 'integration-failed',
          storyId: story.id,
          kind: result.failure.kind === 'conflict' ? 'conflict' : 'check-failed',
          files: result.problem.kind === 'conflict' ? [...result.problem.files] : [],
          landedMeanwhile: result.landedMeanwhile,
        });
        emit({
          type: 'attempt-failed',
          iteration,
          storyId: story.id,
          attempt: attempts,
          maxAttempts: ctx.limits.maxRetries,
          kind: result.failure.kind,
          reason: result.failure.reason,
          willRetry: !parked,
        });
        if (parked)
          emit({ type: 'story-parked', storyId: story.id, attempts, reason: result.failure.reason });
        rejected.push(story.id);
        continue;
      }
      // The remote's compare-and-swap: only if the PRD branch is still where this landing started.
      const pushed = await pushWithLease(root, prdBranch, result.tip, tipBefore);
      if (!pushed.ok) {
        await fetchShared(root, prdBranch, ctx.name);
        const now = await sharedTip(root, prdBranch);
        if (now === tipBefore) throw new SharedRemoteError(`could not push ${prdBranch}: ${pushed.message}`);
        // Another integrator moved it: forget this landing, take theirs, and look again.
        await git(['update-ref', '-m', 'ralph: lost a race', `refs/heads/${prdBranch}`, now ?? result.tip], {
          cwd: root,
        });
        await returnToBranch(ctx.cwd, prdBranch);
        continue;
      }
      await pushWithLease(root, next.branch.branch, null, next.branch.tip);
      // The remote had this very commit already: another integrator landed the story the same way.
      if (!pushed.changed) continue;
      await store.update((s) =>
        markPassed(s, story.id, { commits: result.commits.map((c) => c.sha), now: ctx.now() }),
      );
      // The attempt ran in another job: its spend travels in the verdict.
      emit({
        type: 'story-passed',
        iteration,
        storyId: story.id,
        title: story.title,
        attempt: next.verdict.attempt,
        commits: result.commits,
        costUsd: next.verdict.costUsd,
        durationMs: next.verdict.durationMs,
      });
      landed.push(story.id);
      await hooks.afterIteration({
        iteration,
        runId: ctx.name,
        transcript: iterationLogPath(ctx.files.dir, Math.max(1, iteration)),
        storyId: story.id,
        prd: ctx.source.path,
      });
    }
  } finally {
    await hooks.drain(60_000, ctx.killSignal);
  }
  const prd = await readTaskFile(ctx);
  const plan = planShared(
    prd,
    [...sharedStories(prd, ctx.name, await sharedStoryBranches(root, ctx.name)).values()],
    Number.POSITIVE_INFINITY,
  );
  const next = plan.complete
    ? 'pull-request'
    : plan.stories.length > 0 || plan.verified.length > 0
      ? 'dispatch'
      : 'stop';
  return { landed, rejected, aborted, remaining: plan.remaining, next };
}

async function currentTip(root: string, prdBranch: string): Promise<string> {
  const tip = await refSha(root, `refs/heads/${prdBranch}`);
  if (tip === null) throw new SharedRemoteError(`the PRD branch ${prdBranch} does not exist`);
  return tip;
}
