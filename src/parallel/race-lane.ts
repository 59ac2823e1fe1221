import { afterRefusal, MAX_REQUEUES, raceSummary, requeueNote } from '../core/landing-race.js';
import type { RunEventSink } from '../events/run-event.js';
import { changedPaths } from '../git/resolution-checkout.js';
import { refSha, writeVerdict } from '../git/story-branches.js';
import { removeStoryCheckout } from '../git/story-worktree.js';
import { isToolFile } from '../run/tool-files.js';
import { faultPoint } from '../state/fault-point.js';
import { endResolving, markRequeued, reserveLanding } from '../state/race-records.js';
import { markFailed, storyRun } from '../state/run-state-update.js';
import { type LandingEnd, landNext } from './merge-lane.js';
import type { ParallelRun, Verified } from './parallel-run.js';
import { releaseReservation } from './reservation.js';
import { type RaceResolution, resolutionRecords, resolveRace } from './resolve-race.js';
import { storyCheckoutOf } from './work-story.js';

/** What a race came to; a resolution held up by its agent's API or limits waits with its work, keeping the reservation. */
export type RaceEnd =
  | 'landed'
  | 'not-landed'
  | 'requeued'
  | 'aborted'
  | { held: Extract<RaceResolution, { kind: 'rate-limited' | 'outside' }> };

type Race = Extract<LandingEnd, { kind: 'race' }>;

/**
 * A verified story lost a race to land: the next landing is reserved for
 * it, and its work is brought onto the new tip (`resolveRace`: git, else
 * its agent once); the result, stored as a new verdict on its branch,
 * lands at once. If that fails, the story is requeued: redone from the new
 * tip, the attempt given back, why it happened in the redo's prompt; it
 * keeps the reservation. Past `MAX_REQUEUES` it is parked, saying why.
 */
export async function settleRace(run: ParallelRun, item: Verified, race: Race): Promise<RaceEnd> {
  const { ctx, store } = run;
  const emit = run.laneEmit('merge', item.storyId);
  const story = run.prd.stories.find((s) => s.id === item.storyId);
  if (!story) return 'not-landed';
  const files = (await changedPaths(run.root, item.verdict.base, item.verdict.head)).filter(
    (f) => !isToolFile(ctx, f),
  );
  run.reserved = { storyId: story.id, files };
  await store.update((s) => reserveLanding(s, run.reserved, ctx.now()));

  const agent = run.agent();
  const resolution = await resolveRace({
    ctx,
    root: run.root,
    story,
    prd: run.prd,
    verdict: item.verdict,
    tip: race.tip,
    problem: race.problem,
    landedMeanwhile: race.landedMeanwhile,
    agent,
    emit,
    iteration: item.iteration,
    record: resolutionRecords(store, emit, {
      storyId: story.id,
      iteration: item.iteration,
      race,
      agent: agent.adapter.name,
      now: ctx.now,
    }),
  }).finally(() => store.update((s) => endResolving(s, ctx.now())));
  return afterResolution(run, item, race, resolution, emit);
}

async function afterResolution(
  run: ParallelRun,
  item: Verified,
  race: Race,
  resolution: RaceResolution,
  emit: RunEventSink,
): Promise<RaceEnd> {
  switch (resolution.kind) {
    case 'aborted':
      // Stopped at once: the verified branch stays, to land on the next run.
      run.queue.unshift(item);
      return 'aborted';
    case 'rate-limited':
    case 'outside':
      // Its work still stands; it waits (keeping the reservation) for the limit or the outage to pass.
      run.queue.unshift(item);
      return { held: resolution };
    case 'refused':
      emit({
        type: 'resolution-finished',
        storyId: item.storyId,
        resolved: false,
        byAgent: true,
        reason: resolution.reason,
      });
      return requeue(run, item, race, resolution.reason, emit);
    case 'resolved':
      break;
  }
  const { verdict } = resolution;
  const verdictSha = await refSha(run.root, `refs/heads/${item.branch}`);
  if (verdictSha === null) throw new Error(`the story branch ${item.branch} is gone`);
  await writeVerdict(run.root, item.branch, verdict, verdictSha);
  faultPoint('resolution-verified');
  emit({ type: 'resolution-finished', storyId: item.storyId, resolved: true, byAgent: resolution.byAgent });
  const resolved = { ...item, verdict };
  const end = await run.inCheckout(() => landNext(run, resolved, { afterResolution: true }));
  if (end.kind === 'race') {
    // Something landed between the resolution and its landing (a hook's work): the story goes again from there.
    return requeue(run, resolved, end, 'the PRD branch moved on again before it could land', emit);
  }
  return end.kind;
}

/** The story is redone from the new tip: not a failed attempt, unless it ran out of requeues. */
async function requeue(
  run: ParallelRun,
  item: Verified,
  race: Race,
  refusal: string,
  emit: RunEventSink,
): Promise<RaceEnd> {
  const { ctx, store } = run;
  const { storyId } = item;
  const next = afterRefusal({
    requeues: storyRun(store.current, storyId).requeues ?? 0,
    max: MAX_REQUEUES,
    why: raceSummary(race.problem, race.landedMeanwhile),
  });
  await removeStoryCheckout(run.root, { ...storyCheckoutOf(ctx, storyId), branch: item.branch });
  if (next.kind === 'park') {
    await store.update((s) =>
      markFailed(s, storyId, { reason: next.reason, kind: 'requeue-limit', now: ctx.now(), park: true }),
    );
    emit({ type: 'story-parked', storyId, attempts: item.verdict.attempt, reason: next.reason });
    run.busy.delete(storyId);
    await releaseReservation(run, storyId);
    await run.afterIteration(item.iteration, storyId);
    return 'not-landed';
  }
  const note = requeueNote(race.problem, race.landedMeanwhile, refusal);
  await store.update((s) =>
    markRequeued(s, storyId, {
      requeues: next.requeues,
      note: { kind: note.kind, reason: note.reason, ...(note.detail ? { gateOutputTail: note.detail } : {}) },
      now: ctx.now(),
    }),
  );
  emit({
    type: 'story-requeued',
    storyId,
    requeues: next.requeues,
    maxRequeues: MAX_REQUEUES,
    reason: note.reason,
  });
  run.busy.delete(storyId);
  return 'requeued';
}
