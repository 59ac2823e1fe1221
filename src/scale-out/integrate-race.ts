import type { IntegrationProblem } from '../core/integration-failure.js';
import { afterRefusal, MAX_REQUEUES, raceSummary, requeueNote } from '../core/landing-race.js';
import type { StoryVerdict } from '../core/story-verdict.js';
import type { Story } from '../core/types.js';
import type { RunEventSink } from '../events/run-event.js';
import { changedPaths } from '../git/resolution-checkout.js';
import { refSha } from '../git/story-branches.js';
import { removeStoryCheckout } from '../git/story-worktree.js';
import { resolutionRecords, resolveRace } from '../parallel/resolve-race.js';
import { storyCheckoutDir } from '../parallel/work-story.js';
import { readTaskFile } from '../run/read-task-file.js';
import { isToolFile } from '../run/tool-files.js';
import { endResolving } from '../state/race-records.js';
import type { Role } from './open-role.js';
import { pushSetback, SharedRemoteError, type SharedStoryBranch } from './shared-remote.js';

/** A verified story branch on the remote, its story, and how many others wait behind it. */
export interface Turn {
  story: Story;
  branch: SharedStoryBranch;
  verdict: StoryVerdict;
  queued: number;
}

export interface RemoteRace {
  problem: IntegrationProblem;
  landedMeanwhile: readonly string[];
  tip: string;
}

export type RemoteRaceEnd =
  | { kind: 'resolved'; verdict: StoryVerdict }
  /** The story is planned again (a requeue on its branch), or parked past the bound: nothing else lands this run. */
  | { kind: 'requeued' }
  /** Another integrator changed the story's branch first. */
  | { kind: 'again' }
  /** A rate limit: the verdict stays for a later run. */
  | { kind: 'stop' }
  | { kind: 'aborted' };

/**
 * `ralph integrate` meets a race as the local merge queue does: the
 * story's work is brought onto the tip in this clone (`resolveRace`: git,
 * else the story's agent once, when it is installed here); the caller lands
 * what resolved. What does not resolve is requeued on the remote: a
 * requeue replaces the verdict, the story is planned again first with its
 * attempt given back, and this run lands nothing more (the next landing is
 * the requeued story's).
 */
export async function settleOnRemote(
  role: Role,
  turn: Turn,
  race: RemoteRace,
  emit: RunEventSink,
): Promise<RemoteRaceEnd> {
  const { ctx, store } = role;
  const { story, verdict } = turn;
  const agent = ctx.agent;
  // The attempt ran in another job; its stream here is the resolution's.
  const iteration = Math.max(1, store.current.iteration);
  try {
    const resolution = await resolveRace({
      ctx,
      root: role.root,
      story,
      prd: await readTaskFile(ctx),
      verdict,
      tip: race.tip,
      problem: race.problem,
      landedMeanwhile: race.landedMeanwhile,
      agent,
      emit,
      iteration,
      record: resolutionRecords(store, emit, {
        storyId: story.id,
        iteration,
        race,
        agent: agent.adapter.name,
        now: ctx.now,
      }),
    }).finally(() => store.update((s) => endResolving(s, ctx.now())));
    switch (resolution.kind) {
      case 'aborted':
        return { kind: 'aborted' };
      case 'rate-limited':
      case 'outside':
        // Its verdict stays on origin for a later run, when the API or the limit lets the agent work.
        return { kind: 'stop' };
      case 'resolved':
        emit({ type: 'resolution-finished', storyId: story.id, resolved: true, byAgent: resolution.byAgent });
        return { kind: 'resolved', verdict: resolution.verdict };
      case 'refused':
        emit({
          type: 'resolution-finished',
          storyId: story.id,
          resolved: false,
          byAgent: true,
          reason: resolution.reason,
        });
        return requeueOnRemote(role, turn, race, resolution.reason, emit);
    }
  } finally {
    await removeStoryCheckout(role.root, { dir: storyCheckoutDir(ctx.files.dir, story.id) });
  }
}

/**
 * Replaces the story's verdict on the remote with a requeue (only if the
 * verdict is still there): planned again first, its attempt given back,
 * what its work touched held for it. Past `MAX_REQUEUES` a parking setback
 * says why instead.
 */
export async function requeueOnRemote(
  role: Role,
  turn: Turn,
  race: RemoteRace,
  refusal: string,
  emit: RunEventSink,
): Promise<RemoteRaceEnd> {
  const { ctx, root, prdBranch } = role;
  const { story, verdict } = turn;
  const next = afterRefusal({
    requeues: verdict.requeues ?? 0,
    max: MAX_REQUEUES,
    why: raceSummary(race.problem, race.landedMeanwhile),
  });
  const tip = await refSha(root, `refs/heads/${prdBranch}`);
  if (tip === null) throw new SharedRemoteError(`the PRD branch ${prdBranch} does not exist`);
  const files = (await changedPaths(root, verdict.base, verdict.head)).filter((f) => !isToolFile(ctx, f));
  const note = requeueNote(race.problem, race.landedMeanwhile, refusal);
  const failure =
    next.kind === 'park'
      ? { kind: 'requeue-limit', reason: next.reason }
      : { kind: note.kind, reason: note.reason, ...(note.detail ? { gateOutputTail: note.detail } : {}) };
  const sent = await pushSetback(root, turn.branch.branch, {
    parent: tip,
    expected: turn.branch.tip,
    setback: {
      version: 1,
      prd: ctx.name,
      storyId: story.id,
      attempts: next.kind === 'park' ? verdict.attempt : Math.max(0, verdict.attempt - 1),
      parked: next.kind === 'park',
      ...(next.kind === 'requeue' ? { requeued: true, requeues: next.requeues, files } : {}),
      failure,
      at: ctx.now().toISOString(),
    },
  });
  if (!sent.ok || !sent.changed) return { kind: 'again' };
  if (next.kind === 'park') {
    emit({ type: 'story-parked', storyId: story.id, attempts: verdict.attempt, reason: next.reason });
  } else {
    emit({
      type: 'story-requeued',
      storyId: story.id,
      requeues: next.requeues,
      maxRequeues: MAX_REQUEUES,
      reason: note.reason,
    });
  }
  return { kind: 'requeued' };
}
