import type { ExitCode } from '../core/errors.js';
import { heldByReservation, nextToLand } from '../core/landing-race.js';
import type { OutsideFailure } from '../core/outside-failure.js';
import { type StartLimit, startLimit, whenIdle } from '../core/parallel-rules.js';
import { openQuestionNotes, waitingMessage } from '../core/questions.js';
import { readyStories } from '../core/ready.js';
import { allDoneMessage } from '../core/scope-summary.js';
import { remainingStories } from '../core/select.js';
import type { RunEventSink, StopReason } from '../events/run-event.js';
import { removeStoryCheckout } from '../git/story-worktree.js';
import type { AnswerDesk } from '../run/answer-desk.js';
import {
  type OutsideOutcome,
  respondToLimit,
  respondToOutside,
  runAgentRotation,
} from '../run/outside-response.js';
import { readTaskFile } from '../run/read-task-file.js';
import { announceFinish, announceRun, createRunHooks } from '../run/run-bounds.js';
import type { LoopOutcome, RunContext } from '../run/run-context.js';
import { iterationLogPath } from '../state/layout.js';
import { markStopped } from '../state/run-state-update.js';
import { landNext } from './merge-lane.js';
import type { WaitingStory } from './parallel-recovery.js';
import type { ParallelRun, Verified } from './parallel-run.js';
import { type RaceEnd, settleRace } from './race-lane.js';
import { releaseReservation } from './reservation.js';
import type { StateStore } from './state-store.js';
import { storyCheckoutOf } from './work-story.js';
import { parkSpentStories, runWorkerLane } from './worker-lane.js';

export interface ScheduleOptions {
  ctx: RunContext;
  store: StateStore;
  /** The repository's main checkout. */
  root: string;
  prdBranch: string;
  workers: number;
  /** Verified work a killed run left, to land first. */
  waiting: WaitingStory[];
  resumed: boolean;
  /** The run's questions and the answers people give. */
  desk: AnswerDesk;
  /** Stops every agent and gate at once (after an error); `ctx.killSignal` follows it. */
  abortAll(): void;
}

/**
 * The parallel run: up to `workers` stories at once, each attempt in its
 * own checkout (`runWorkerLane`), verified stories landed one at a time in
 * the order they passed (`landNext`), new stories picked as the PRD branch
 * moves (`readyStories`). Limits and signals apply across the workers: the
 * iteration limit counts every worker's attempts, the budget counts the
 * attempts still running, a rate limit holds new starts (or moves them to a
 * fallback agent), the first Ctrl-C starts nothing new and lets running
 * stories land, the second stops everything.
 */
export async function schedule(options: ScheduleOptions): Promise<LoopOutcome> {
  const { ctx, store, workers } = options;
  const scope = { onlyStoryId: ctx.onlyStoryId, resumeFromId: ctx.resumeFromId };
  const prd = await readTaskFile(ctx);
  const { baseMaxIterations, maxIterations: steeredAtStart } = announceRun(
    ctx,
    prd,
    options.resumed,
    store.current.totals.costUsd,
    store.current.iteration,
  );
  let maxIterations = steeredAtStart;
  /** The iteration number this session starts after: `iteration N/last` numbers go on from it. */
  const iterationsBefore = store.current.iteration;
  ctx.emit({ type: 'parallel-started', workers, prdBranch: options.prdBranch });
  const hooks = createRunHooks(ctx, (e) => ctx.emit({ ...e, worker: 'merge' }));
  let checkout: Promise<unknown> = Promise.resolve();
  const chores = new Set<Promise<void>>();
  /** An error in a worker, the merge queue or a chore: the run stops everything and ends with it. */
  const errors: unknown[] = [];
  const agents = runAgentRotation(ctx);
  const run: ParallelRun = {
    ctx,
    store,
    root: options.root,
    prdBranch: options.prdBranch,
    workers,
    prd,
    desk: options.desk,
    busy: new Set(options.waiting.map((w) => w.storyId)),
    queue: options.waiting.map((w) => ({ ...w, iteration: store.current.iteration })),
    reserved: store.current.reserved ?? null,
    agent: () => agents.current(),
    laneEmit: (worker, storyId) => (event) =>
      ctx.emit({ ...event, worker, storyId: event.storyId ?? storyId }),
    afterIteration: (iteration, storyId) =>
      hooks.afterIteration({
        iteration,
        runId: ctx.name,
        transcript: iterationLogPath(ctx.files.dir, Math.max(1, iteration)),
        storyId,
        prd: ctx.source.path,
      }),
    inCheckout: (work) => {
      const turn = checkout.then(work);
      checkout = turn.catch(() => undefined);
      return turn;
    },
    meanwhile: (work) => {
      const chore = work()
        .catch((error: unknown) => void errors.push(error))
        .finally(() => chores.delete(chore));
      chores.add(chore);
    },
  };

  /** Waits after a rate limit or in an outage, every agent held up: no new attempt starts while one lasts. */
  const holds = new Set<Promise<void>>();
  /** An agent that cannot be used, or an outage that outlasted --outage-wait: the run ends with it. */
  let stopFor: Extract<OutsideOutcome, { kind: 'stop' }> | null = null;
  /** Attempts started this session that count (rate-limited and interrupted ones are given back). */
  let attempts = 0;
  /** Attempts started this session, counted or given back: each takes an iteration number. */
  let started = 0;
  const lanes = new Map<number, Promise<void>>();
  let landing: Promise<void> | null = null;
  const landedThisRun = new Set<string>();

  const startLane = (worker: number, storyId: string) => {
    const story = run.prd.stories.find((s) => s.id === storyId);
    if (!story) return;
    attempts++;
    started++;
    run.busy.add(story.id);
    const agent = agents.current();
    // As the run started announced it, on every lane alike (lanes take their numbers as they start, so
    // the numbers taken so far cannot tell): this session's limit after the numbers before it, plus one
    // for each attempt given back (it took a number without counting).
    const lastIteration = iterationsBefore + maxIterations + (started - attempts);
    const lane = runWorkerLane(run, worker, story, agent, lastIteration).then((result) => {
      const emit = run.laneEmit(worker, story.id);
      if (result.kind === 'rate-limited' || result.kind === 'aborted' || result.kind === 'outside')
        attempts--;
      if (result.kind === 'rate-limited') holdStarts(emit, story.id, result, agent);
      else if (result.kind === 'outside') outsideHold(emit, story.id, result, agent);
      else agents.succeeded();
    });
    lanes.set(
      worker,
      lane.catch((error: unknown) => void errors.push(error)).finally(() => lanes.delete(worker)),
    );
  };

  const outside = (emit: RunEventSink) => ({ emit, agents, signals: [ctx.stopSignal, ctx.killSignal] });
  const hold = (work: Promise<void>) => {
    holds.add(work);
    void work.finally(() => holds.delete(work));
  };

  /** A rate limit: new attempts go to the next fallback agent, or wait; running ones go on. */
  const holdStarts = (
    emit: RunEventSink,
    storyId: string,
    hit: { iteration: number; rateLimit?: { message: string; resetsAt?: string }; quota?: boolean },
    agent: typeof ctx.agent,
  ) => {
    const limit = {
      message: hit.rateLimit?.message ?? 'rate limited',
      ...(hit.rateLimit?.resetsAt ? { resetsAt: hit.rateLimit.resetsAt } : {}),
      ...(hit.quota ? { quota: true } : {}),
    };
    hold(respondToLimit(outside(emit), limit, agent, { iteration: hit.iteration, storyId }));
  };

  /**
   * An agent that cannot be used stops every attempt at once (each given
   * back) and ends the run; an outage holds new starts until the API is
   * back (or goes to a fallback agent), and ends the run past --outage-wait.
   */
  const outsideHold = (
    emit: RunEventSink,
    storyId: string,
    hit: { iteration: number; failure: OutsideFailure },
    agent: typeof ctx.agent,
  ) => {
    if (stopFor !== null) return;
    const answered = respondToOutside(outside(emit), hit.failure, agent, {
      iteration: hit.iteration,
      storyId,
    }).then((answer) => {
      if (answer.kind !== 'stop' || stopFor !== null) return;
      stopFor = answer;
      if (answer.reason === 'agent-unusable') options.abortAll();
    });
    hold(answered);
  };

  const finish = async (reason: StopReason, exitCode: ExitCode, message: string): Promise<LoopOutcome> => {
    await hooks.drain(60_000, ctx.killSignal);
    await Promise.all(chores);
    // Only verified work not yet landed (after a second Ctrl-C) keeps its branch, to land on the next run.
    const waiting = new Set(run.queue.map((q) => q.storyId));
    for (const story of run.prd.stories) {
      if (!waiting.has(story.id)) await removeStoryCheckout(run.root, storyCheckoutOf(ctx, story.id));
    }
    const state = await store.update((s) => markStopped(s, { reason, exitCode, now: ctx.now() }));
    const questions = openQuestionNotes(ctx.name, run.desk.open());
    announceFinish(ctx, run.prd, state, { reason, exitCode, message, iterations: attempts, questions });
    return { exitCode, reason };
  };

  /** One turn of the merge queue: land the story; a race is settled (resolved, else requeued) in the same turn. */
  const landTurn = async (item: Verified): Promise<RaceEnd> => {
    const end = await run.inCheckout(async () => {
      // What background hooks wrote lands first, while the PRD checkout is on its branch.
      await hooks.betweenIterations();
      return landNext(run, item);
    });
    if (end.kind !== 'race') return end.kind;
    const settled = await settleRace(run, item, end);
    if (typeof settled === 'object') {
      const emit = run.laneEmit('merge', item.storyId);
      const { held } = settled;
      if (held.kind === 'outside')
        outsideHold(emit, item.storyId, { iteration: item.iteration, failure: held.failure }, run.agent());
      else
        holdStarts(
          emit,
          item.storyId,
          { iteration: item.iteration, rateLimit: { message: held.reason } },
          run.agent(),
        );
    }
    return settled;
  };

  const stopped = new Promise<void>((resolve) => {
    if (ctx.stopSignal.aborted || ctx.killSignal.aborted) resolve();
    ctx.stopSignal.addEventListener('abort', () => resolve(), { once: true });
    ctx.killSignal.addEventListener('abort', () => resolve(), { once: true });
  });

  for (;;) {
    if (errors.length > 0) {
      options.abortAll();
      await Promise.allSettled([...lanes.values(), landing, ...chores]);
      throw errors[0];
    }
    const stop = ctx.killSignal.aborted ? 'immediate' : ctx.stopSignal.aborted ? 'graceful' : 'none';
    // A story that lost a race lands next; while a rate limit holds, it waits with the rest.
    const next =
      stop === 'immediate' || (run.reserved !== null && holds.size > 0)
        ? undefined
        : nextToLand(run.queue, run.reserved, run.prd.stories);
    if (landing === null && next !== undefined) {
      run.queue.splice(run.queue.indexOf(next), 1);
      landing = landTurn(next)
        .then((end) => {
          if (end === 'landed') landedThisRun.add(next.storyId);
          // Redone from the new tip: the attempt that made the dropped work is given back.
          if (end === 'requeued') attempts--;
        })
        .catch((error: unknown) => void errors.push(error))
        .finally(() => {
          landing = null;
        });
    }
    const steered = ctx.steering?.maxIterations ?? baseMaxIterations;
    if (steered !== maxIterations) {
      maxIterations = steered;
      ctx.limits = { ...ctx.limits, maxIterations };
      ctx.emit({ type: 'max-iterations-changed', maxIterations });
    }
    const parked = new Set(
      Object.entries(store.current.stories).flatMap(([id, s]) => (s.parked ? [id] : [])),
    );
    let limit: StartLimit | null = null;
    if (stop === 'none' && holds.size === 0 && stopFor === null) {
      const held = heldByReservation(run.prd.stories, run.reserved);
      const ready = readyStories(run.prd.stories, {
        ...scope,
        parked,
        waiting: run.desk.waiting(),
        busy: new Set([...run.busy, ...held]),
        cap: workers - lanes.size,
        ...(run.reserved ? { first: new Set([run.reserved.storyId]) } : {}),
      });
      // Spent up to --max-cost-per-story (an earlier run, a race's resolution): parked without another attempt, then pick again.
      if ((await parkSpentStories(run, ready)) > 0) continue;
      for (const story of ready) {
        const totals = store.current.totals;
        limit = startLimit({
          attempts,
          maxIterations,
          spend: { costUsd: totals.costUsd, iterations: totals.iterations - lanes.size },
          maxCostUsd: ctx.limits.maxCostUsd,
          running: lanes.size,
        });
        if (limit !== null) break;
        startLane(firstFree(lanes, workers), story.id);
      }
    }
    // A reservation no one can honour (its story is not ready, or may not start now) would hold up every landing.
    const couldStart = stop === 'none' && limit === null && (holds.size > 0 || lanes.size >= workers);
    if (run.reserved !== null && !run.busy.has(run.reserved.storyId) && !couldStart) {
      await releaseReservation(run, run.reserved.storyId);
      continue;
    }
    // After a second Ctrl-C verified work is not landed now: it waits on its branch for the next run.
    const toLand = stop === 'immediate' ? 0 : run.queue.length;
    if (stopFor !== null && lanes.size === 0 && landing === null && holds.size === 0) {
      const { reason, exitCode, message } = stopFor;
      return finish(reason, exitCode, message);
    }
    if (lanes.size === 0 && landing === null && toLand === 0 && errors.length === 0) {
      const landed = new Set(run.prd.stories.filter((s) => s.status === 'done').map((s) => s.id));
      const decision = whenIdle({
        remaining: remainingStories(run.prd.stories, scope),
        landed,
        parked,
        stop,
        limit,
        maxIterations,
        ...(ctx.limits.maxCostUsd !== undefined ? { maxCostUsd: ctx.limits.maxCostUsd } : {}),
        holding: holds.size > 0,
        asked: run.desk.waiting(),
        waitForAnswers: ctx.waitForAnswers ?? false,
        allDone: allDoneMessage(run.prd.stories, scope, landedThisRun),
      });
      if (decision.kind === 'finish') return finish(decision.reason, decision.exitCode, decision.message);
      if (decision.kind === 'await-answers') {
        const open = run.desk.open();
        ctx.emit({ type: 'waiting', reason: 'question', message: waitingMessage(open) });
        await run.desk.nextAnswer(ctx.stopSignal, ctx.killSignal);
        continue;
      }
      await Promise.race(holds);
      continue;
    }
    const wakeups: Promise<unknown>[] = [...lanes.values()];
    // An answer lets its story start while the others still run.
    if (stop === 'none') wakeups.push(stopped, run.desk.changed());
    if (landing !== null) wakeups.push(landing);
    if (stop === 'none') wakeups.push(...holds);
    await Promise.race(wakeups);
  }
}

function firstFree(lanes: ReadonlyMap<number, unknown>, workers: number): number {
  for (let worker = 1; worker <= workers; worker++) if (!lanes.has(worker)) return worker;
  throw new Error('no free worker');
}
