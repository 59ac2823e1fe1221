import type { AgentSetup } from '../agents/adapter.js';
import { afterStoryAttempt } from '../core/next-step.js';
import type { Story } from '../core/types.js';
import type { AttemptFailure } from '../core/verdict.js';
import type { RunEventSink } from '../events/run-event.js';
import { removeStoryCheckout } from '../git/story-worktree.js';
import { addUsage, markFailed, storyRun } from '../state/run-state-update.js';
import { endRunning, startRunning, updateRunning } from '../state/running-attempts.js';
import type { ParallelRun } from './parallel-run.js';
import { releaseReservation } from './reservation.js';
import { type StoryWorkRequest, type StoryWorkResult, storyCheckoutOf, workStory } from './work-story.js';

/**
 * One worker's attempt at a story, with what the run records around it:
 * the attempt in flight (for a killed run to stop its agent and gate), its
 * spend, and the outcome. Verified work joins the merge queue; a failure
 * is recorded (the story parked once out of retries) and the hooks run; a
 * question gives the attempt back and the story waits for its answer; a
 * rate limit or an interrupt gives the attempt back. The caller decides
 * what a rate limit means for the other workers.
 */
export async function runWorkerLane(
  run: ParallelRun,
  worker: number,
  story: Story,
  agent: AgentSetup,
  lastIteration?: number,
): Promise<StoryWorkResult> {
  const { ctx, store } = run;
  const emit = run.laneEmit(worker, story.id);
  const { lastFailure, lastRequeue, requeues } = storyRun(store.current, story.id);
  const result = await workStory({
    ctx,
    root: run.root,
    prdBranch: run.prdBranch,
    story,
    agent,
    ...(lastIteration !== undefined ? { lastIteration } : {}),
    emit,
    ...(lastFailure ? { lastFailure } : {}),
    ...(lastRequeue ? { lastRequeue } : {}),
    ...(requeues ? { requeues } : {}),
    answered: run.desk.answered(story.id),
    record: laneRecord(run, story.id, worker),
  });
  // A story's time is the time its counted attempts ran.
  const counted = result.kind === 'verified' || result.kind === 'failed';
  if (counted) await store.update((s) => addUsage(s, story.id, { durationMs: result.durationMs }, ctx.now()));
  switch (result.kind) {
    case 'verified':
      await store.update((s) => endRunning(s, story.id, ctx.now()));
      emit({
        type: 'story-verified',
        storyId: story.id,
        attempt: result.attempt,
        branch: result.branch,
        commits: result.commits,
      });
      run.queue.push({
        storyId: story.id,
        branch: result.branch,
        verdict: result.verdict,
        iteration: result.iteration,
      });
      break;
    case 'rate-limited':
    case 'outside':
    case 'aborted':
      run.busy.delete(story.id);
      await store.update((s) => endRunning(s, story.id, ctx.now(), true));
      break;
    case 'asked':
      // Asking is not failing: the attempt is given back and the story waits for the answer.
      await store.update((s) => endRunning(s, story.id, ctx.now(), true));
      await run.desk.ask(
        { id: story.id, storyId: story.id, question: result.question, iteration: result.iteration },
        emit,
      );
      run.busy.delete(story.id);
      await run.inCheckout(() => run.afterIteration(result.iteration, story.id));
      break;
    case 'failed':
      await recordFailure(run, {
        story,
        attempt: result.attempt,
        iteration: result.iteration,
        failure: result.failure,
        emit,
        durationMs: result.durationMs,
      });
      await run.inCheckout(() => run.afterIteration(result.iteration, story.id));
      break;
  }
  return result;
}

/** What a lane records about its attempt as it goes: in flight (for a killed run to stop it), its agent, its spend. */
function laneRecord(run: ParallelRun, storyId: string, worker: number): StoryWorkRequest['record'] {
  const { ctx, store } = run;
  return {
    started: async (start) => {
      const state = await store.update((s) => startRunning(s, { storyId, worker, now: ctx.now(), ...start }));
      return { iteration: state.iteration, attempt: storyRun(state, storyId).attempts };
    },
    spawned: async (pid) => {
      await store.update((s) => updateRunning(s, storyId, { agentPid: pid, phase: 'agent' }));
    },
    token: async (token) => {
      await store.update((s) => updateRunning(s, storyId, { agentToken: token }));
    },
    agentDone: async (usage) => {
      await store.update((s) => addUsage(s, storyId, usage, ctx.now()));
    },
  };
}

/**
 * A failed attempt, from a worker or the merge queue: recorded with its
 * reason (the retry's prompt shows it), the story parked once it has used
 * its retries (its worktree and branch then removed), and freed to start again.
 */
export async function recordFailure(
  run: ParallelRun,
  failed: {
    story: Story;
    attempt: number;
    iteration: number;
    failure: AttemptFailure;
    emit: RunEventSink;
    durationMs?: number;
  },
): Promise<void> {
  const { ctx } = run;
  const { story, attempt, failure, emit } = failed;
  const costUsd = storyRun(run.store.current, story.id).costUsd;
  const end = { kind: 'failed', storyId: story.id, attempt, reason: failure.reason, costUsd } as const;
  const parking = afterStoryAttempt(end, ctx.limits);
  const park = parking?.kind === 'park';
  await run.store.update((s) =>
    markFailed(endRunning(s, story.id, ctx.now()), story.id, {
      reason: failure.reason,
      kind: failure.kind,
      now: ctx.now(),
      park,
      ...(failure.gateOutputTail ? { gateOutputTail: failure.gateOutputTail } : {}),
    }),
  );
  emit({
    type: 'attempt-failed',
    iteration: failed.iteration,
    storyId: story.id,
    attempt,
    maxAttempts: ctx.limits.maxRetries,
    kind: failure.kind,
    reason: failure.reason,
    willRetry: !park,
    ...(failed.durationMs !== undefined ? { durationMs: failed.durationMs } : {}),
  });
  if (parking?.kind === 'park') {
    emit({ type: 'story-parked', storyId: story.id, attempts: attempt, reason: parking.reason });
    await removeStoryCheckout(run.root, storyCheckoutOf(run.ctx, story.id));
  }
  run.busy.delete(story.id);
  // Failing on its own, it no longer holds up the others' landings.
  await releaseReservation(run, story.id);
}
