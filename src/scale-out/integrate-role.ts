import type { IntegrationProblem } from '../core/integration-failure.js';
import { isRace } from '../core/landing-race.js';
import { integrationOrder, planShared } from '../core/shared-plan.js';
import { setbackFor } from '../core/story-setback.js';
import type { AttemptFailure } from '../core/verdict.js';
import type { RunEventSink } from '../events/run-event.js';
import { git } from '../git/index.js';
import { returnToBranch } from '../git/land.js';
import { refSha } from '../git/story-branches.js';
import { integrationFailed, type LandResult, landStory } from '../parallel/land-story.js';
import { recordLandingStart } from '../parallel/state-store.js';
import type { HookRunner } from '../run/hooks.js';
import { readTaskFile } from '../run/read-task-file.js';
import { createRunHooks } from '../run/run-bounds.js';
import { iterationLogPath } from '../state/layout.js';
import { markPassed } from '../state/run-state-update.js';
import { endIntegrating } from '../state/running-attempts.js';
import { requeueOnRemote, settleOnRemote, type Turn } from './integrate-race.js';
import type { Role } from './open-role.js';
import { sharedStories } from './plan-role.js';
import {
  fetchShared,
  pushSetback,
  pushWithLease,
  SharedRemoteError,
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

/**
 * What one turn came to: only `landed`, `rejected` and `requeued` are this integrator's doing.
 * `requeued` and `stop` end the run: the next landing is the requeued story's, in a later round.
 */
type TurnEnd = 'landed' | 'rejected' | 'requeued' | 'again' | 'stop' | 'aborted';

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
  const { ctx } = role;
  const landed: string[] = [];
  const rejected: string[] = [];
  const hooks = createRunHooks(ctx, (e) => ctx.emit({ ...e, worker: 'merge' }));
  let aborted = false;
  try {
    for (let round = 0; ; round++) {
      if (round > 0) {
        await fetchShared(role.root, role.prdBranch, ctx.name);
        await syncPrdBranch(role.root, role.prdBranch);
      }
      if (ctx.stopSignal.aborted || ctx.killSignal.aborted) {
        aborted = true;
        break;
      }
      const turn = await nextTurn(role);
      if (turn === null) break;
      const end = await integrate(role, turn, hooks);
      if (end === 'aborted') {
        aborted = true;
        break;
      }
      if (end === 'landed') landed.push(turn.story.id);
      if (end === 'rejected' || end === 'requeued') rejected.push(turn.story.id);
      if (end === 'requeued' || end === 'stop') break;
    }
  } finally {
    await hooks.drain(60_000, ctx.killSignal);
  }
  return { landed, rejected, aborted, ...(await whatNext(role)) };
}

/**
 * The first verified story in dependency order, from the task file on the
 * PRD branch's tip; verdicts left behind by stories already there (landed
 * by someone who died before deleting them) are deleted on the way.
 */
async function nextTurn(role: Role): Promise<Turn | null> {
  const { ctx, root } = role;
  const prd = await readTaskFile(ctx);
  const shared = sharedStories(prd, ctx.name, await sharedStoryBranches(root, ctx.name));
  const done = new Set(prd.stories.filter((s) => s.status === 'done').map((s) => s.id));
  for (const [id, s] of shared) {
    if (done.has(id) && s.branch.verdict) await pushWithLease(root, s.branch.branch, null, s.branch.tip);
  }
  const verified = [...shared.values()].flatMap((s) =>
    s.verified && s.branch.verdict
      ? [
          {
            storyId: s.storyId,
            verifiedAt: s.branch.verdict.verifiedAt,
            ...(s.branch.verdict.requeues ? { requeues: s.branch.verdict.requeues } : {}),
            branch: s.branch,
            verdict: s.branch.verdict,
          },
        ]
      : [],
  );
  const next = integrationOrder(prd, verified)[0];
  const story = prd.stories.find((s) => s.id === next?.storyId);
  if (next === undefined || story === undefined) return null;
  return { story, branch: next.branch, verdict: next.verdict, queued: verified.length - 1 };
}

/**
 * One story landed in the PRD checkout, then pushed, sent back, or given up
 * to a faster integrator. A race (the tip moved since the story's attempt
 * started) is settled first: resolved work lands in the same turn.
 */
async function integrate(role: Role, turn: Turn, hooks: HookRunner): Promise<TurnEnd> {
  const { ctx, store, prdBranch } = role;
  const { story } = turn;
  const emit: RunEventSink = (event) =>
    ctx.emit({ ...event, worker: 'merge', storyId: event.storyId ?? story.id });
  const iteration = store.current.iteration;
  const tipBefore = await sharedTip(role.root, prdBranch);
  let verdict = turn.verdict;
  let afterResolution = false;
  for (;;) {
    emit({ type: 'integration-started', storyId: story.id, onto: prdBranch, queued: turn.queued });
    const result = await landStory({
      ctx: { ...ctx, emit },
      prdBranch,
      story,
      verdict,
      iteration,
      emit,
      began: recordLandingStart(store, {
        storyId: story.id,
        checkout: ctx.cwd,
        branch: prdBranch,
        now: ctx.now,
      }),
    });
    await store.update((s) => endIntegrating(s, ctx.now()));
    switch (result.kind) {
      case 'aborted':
        return 'aborted';
      case 'already-landed':
        await pushWithLease(role.root, turn.branch.branch, null, turn.branch.tip);
        return 'again';
      case 'rejected': {
        const race = isRace({ base: verdict.base, tip: result.tip });
        emit(integrationFailed(story.id, result, race ? 'resolve' : 'retry'));
        if (!race) return (await sendBack(role, turn, result, emit, iteration)) ? 'rejected' : 'again';
        const settled = afterResolution
          ? await requeueOnRemote(role, turn, result, 'the resolved work did not pass on the tip', emit)
          : await settleOnRemote(role, turn, result, emit);
        if (settled.kind !== 'resolved') return settled.kind;
        verdict = settled.verdict;
        afterResolution = true;
        continue;
      }
      case 'landed':
        if (!(await publish(role, turn, result, tipBefore))) return 'again';
        await store.update((s) =>
          markPassed(s, story.id, { commits: result.commits.map((c) => c.sha), now: ctx.now() }),
        );
        // The attempt ran in another job: its spend travels in the verdict (with the resolution's, if one ran here).
        emit({
          type: 'story-passed',
          iteration,
          storyId: story.id,
          title: story.title,
          attempt: verdict.attempt,
          commits: result.commits,
          costUsd: verdict.costUsd,
          durationMs: verdict.durationMs,
          ...(afterResolution ? { afterResolution: true } : {}),
        });
        await hooks.afterIteration({
          iteration,
          runId: ctx.name,
          transcript: iterationLogPath(ctx.files.dir, Math.max(1, iteration)),
          storyId: story.id,
          prd: ctx.source.path,
        });
        return 'landed';
    }
  }
}

/**
 * The remote's compare-and-swap: the PRD branch moves only if it is still
 * where this landing started; then the story's branch goes. False when the
 * landing is not ours to count: another integrator moved the branch first
 * (this landing is dropped and the checkout takes their tip) or pushed the
 * very same commit.
 */
async function publish(
  role: Role,
  turn: Turn,
  landed: Extract<LandResult, { kind: 'landed' }>,
  tipBefore: string | null,
): Promise<boolean> {
  const { root, prdBranch, ctx } = role;
  const pushed = await pushWithLease(root, prdBranch, landed.tip, tipBefore);
  if (!pushed.ok) {
    await fetchShared(root, prdBranch, ctx.name);
    const now = await sharedTip(root, prdBranch);
    if (now === tipBefore) throw new SharedRemoteError(`could not push ${prdBranch}: ${pushed.message}`);
    await git(['update-ref', '-m', 'ralph: lost a race', `refs/heads/${prdBranch}`, now ?? landed.tip], {
      cwd: root,
    });
    await returnToBranch(ctx.cwd, prdBranch);
    return false;
  }
  await pushWithLease(root, turn.branch.branch, null, turn.branch.tip);
  return pushed.changed;
}

/**
 * Verified work the tip cannot take: a setback replaces the verdict (only
 * if the verdict is still there; another integrator may have sent it back
 * already), parking the story once it has used its retries. True when this
 * integrator sent it back.
 */
async function sendBack(
  role: Role,
  turn: Turn,
  rejected: { failure: AttemptFailure; problem: IntegrationProblem; landedMeanwhile: string[] },
  emit: RunEventSink,
  iteration: number,
): Promise<boolean> {
  const { ctx, root, prdBranch } = role;
  const { story } = turn;
  const attempts = turn.verdict.attempt;
  const parked = attempts >= ctx.limits.maxRetries;
  const tip = await refSha(root, `refs/heads/${prdBranch}`);
  if (tip === null) throw new SharedRemoteError(`the PRD branch ${prdBranch} does not exist`);
  const sent = await pushSetback(root, turn.branch.branch, {
    parent: tip,
    expected: turn.branch.tip,
    setback: setbackFor(
      { prd: ctx.name, storyId: story.id, attempts, parked, at: ctx.now() },
      rejected.failure,
    ),
  });
  if (!sent.ok || !sent.changed) return false;
  const { failure } = rejected;
  emit({
    type: 'attempt-failed',
    iteration,
    storyId: story.id,
    attempt: attempts,
    maxAttempts: ctx.limits.maxRetries,
    kind: failure.kind,
    reason: failure.reason,
    willRetry: !parked,
  });
  if (parked) emit({ type: 'story-parked', storyId: story.id, attempts, reason: failure.reason });
  return true;
}

/** Stories not landed, and whether a next round has work (`dispatch`), all landed, or only parked ones are left. */
async function whatNext(role: Role): Promise<Pick<IntegrateOutcome, 'remaining' | 'next'>> {
  const prd = await readTaskFile(role.ctx);
  const shared = sharedStories(prd, role.ctx.name, await sharedStoryBranches(role.root, role.ctx.name));
  const plan = planShared(prd, [...shared.values()], Number.POSITIVE_INFINITY);
  const next = plan.complete
    ? 'pull-request'
    : plan.stories.length > 0 || plan.verified.length > 0
      ? 'dispatch'
      : 'stop';
  return { remaining: plan.remaining, next };
}
