import { existsSync } from 'node:fs';
import type { IntegrationProblem } from '../core/integration-failure.js';
import { isRace } from '../core/landing-race.js';
import { removeStoryCheckout } from '../git/story-worktree.js';
import { readTaskFile } from '../run/read-task-file.js';
import { rollBack } from '../run/story-rollback.js';
import { markPassed, storyRun } from '../state/run-state-update.js';
import { endIntegrating } from '../state/running-attempts.js';
import { integrationFailed, landStory } from './land-story.js';
import type { ParallelRun, Verified } from './parallel-run.js';
import { releaseReservation } from './reservation.js';
import { recordLandingStart } from './state-store.js';
import { storyCheckoutOf } from './work-story.js';
import { recordFailure } from './worker-lane.js';

/** What one landing came to; a race is settled by `settleRace` (resolve, else requeue). */
export type LandingEnd =
  | { kind: 'landed' }
  | { kind: 'not-landed' }
  | {
      kind: 'race';
      problem: IntegrationProblem;
      landedMeanwhile: string[];
      /** The tip it could not land on. */
      tip: string;
    };

/**
 * The merge queue's turn for one verified story, holding the PRD checkout:
 * land it (see `landStory`), then record the pass. A failure to land on a
 * tip that moved since the story's attempt started is a race, handed back
 * to be settled; on the tip it started from, it is a failed attempt of the
 * story (kept under a rescue ref with `onFailure: keep`), its worktree and
 * branch removed, and a retry starts afresh from the tip. The landing is
 * recorded as begun, for a killed run to undo.
 */
export async function landNext(
  run: ParallelRun,
  item: Verified,
  options: { afterResolution?: boolean } = {},
): Promise<LandingEnd> {
  const { ctx, store } = run;
  const emit = run.laneEmit('merge', item.storyId);
  const story = run.prd.stories.find((s) => s.id === item.storyId);
  const checkout = { ...storyCheckoutOf(ctx, item.storyId), branch: item.branch };
  if (!story) {
    // The story left the task file: its work has nowhere to land.
    await removeStoryCheckout(run.root, checkout);
    run.busy.delete(item.storyId);
    await releaseReservation(run, item.storyId);
    return { kind: 'not-landed' };
  }
  emit({ type: 'integration-started', storyId: story.id, onto: run.prdBranch, queued: run.queue.length });
  const result = await landStory({
    ctx: { ...ctx, emit },
    prdBranch: run.prdBranch,
    story,
    verdict: item.verdict,
    iteration: item.iteration,
    emit,
    began: recordLandingStart(store, {
      storyId: story.id,
      checkout: ctx.cwd,
      branch: run.prdBranch,
      now: ctx.now,
    }),
  });
  if (result.kind === 'aborted') {
    // Stopped at once (a second Ctrl-C): the verified branch stays, to land on the next run.
    await store.update((s) => endIntegrating(s, ctx.now()));
    return { kind: 'not-landed' };
  }
  if (result.kind === 'rejected') {
    await store.update((s) => endIntegrating(s, ctx.now()));
    const race = isRace({ base: item.verdict.base, tip: result.tip });
    emit(integrationFailed(story.id, result, race ? 'resolve' : 'retry'));
    if (race) {
      return {
        kind: 'race',
        problem: result.problem,
        landedMeanwhile: result.landedMeanwhile,
        tip: result.tip,
      };
    }
    if (existsSync(checkout.dir) && ctx.config.onFailure === 'keep') {
      await rollBack({ ...ctx, cwd: checkout.dir, emit }, story.id, item.verdict.attempt, item.verdict.base);
    }
    await removeStoryCheckout(run.root, checkout);
    const { attempt } = item.verdict;
    await recordFailure(run, { story, attempt, iteration: item.iteration, failure: result.failure, emit });
    await run.afterIteration(item.iteration, story.id);
    return { kind: 'not-landed' };
  }
  const commits = result.kind === 'landed' ? result.commits : [];
  const state = await store.update((s) =>
    endIntegrating(
      result.kind === 'already-landed' && s.stories[story.id]?.passedAt
        ? s
        : markPassed(s, story.id, { commits: commits.map((c) => c.sha), now: ctx.now() }),
      ctx.now(),
    ),
  );
  // The story's worktree is not the PRD checkout: removing it need not hold up the next landing.
  run.meanwhile(() => removeStoryCheckout(run.root, checkout));
  run.prd = await readTaskFile(ctx);
  run.busy.delete(story.id);
  await releaseReservation(run, story.id);
  if (result.kind !== 'landed') return { kind: 'not-landed' };
  const record = storyRun(state, story.id);
  emit({
    type: 'story-passed',
    iteration: item.iteration,
    storyId: story.id,
    title: story.title,
    attempt: item.verdict.attempt,
    commits,
    costUsd: record.costUsd,
    durationMs: record.durationMs,
    ...(options.afterResolution ? { afterResolution: true } : {}),
  });
  await run.afterIteration(item.iteration, story.id);
  return { kind: 'landed' };
}
