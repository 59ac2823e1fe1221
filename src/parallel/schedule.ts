import { heldByReservation, nextToLand } from '../core/landing-race.js';
import type { Interrupt, NextStep, Stop } from '../core/next-step.js';
import { nextStoryStep, reservationHoldsUp } from '../core/next-step.js';
import { openQuestionNotes } from '../core/questions.js';
import type { StopReason } from '../events/run-event.js';
import { removeStoryCheckout } from '../git/story-worktree.js';
import type { AgentRotation } from '../run/agent-rotation.js';
import { waitForAnswer } from '../run/answer-wait.js';
import type { HookRunner } from '../run/hooks.js';
import { runAgentRotation } from '../run/outside-response.js';
import { readTaskFile } from '../run/read-task-file.js';
import {
  announceFinish,
  announceRun,
  createRunHooks,
  decisionLimits,
  iterationLimit,
} from '../run/run-bounds.js';
import type { LoopOutcome, RunContext } from '../run/run-context.js';
import { iterationLogPath } from '../state/layout.js';
import { markParked, markStopped, storyRun } from '../state/run-state-update.js';
import { landNext } from './merge-lane.js';
import type { ParallelRun, Verified } from './parallel-run.js';
import { type RaceEnd, settleRace } from './race-lane.js';
import { releaseReservation } from './reservation.js';
import type { ScheduleOptions } from './scheduler.js';
import { StartHolds } from './start-holds.js';
import { storyCheckoutOf } from './work-story.js';
import { runWorkerLane } from './worker-lane.js';

/**
 * A parallel run's state between steps, and how it carries out each step
 * the decision core gives: start a worker lane, park, land what is
 * verified, wait (for lanes and landings, a hold, an answer), finish.
 */
export class Schedule {
  /** Attempts started this session that count (rate-limited and interrupted ones are given back). */
  private attempts = 0;
  /** Attempts started this session, counted or given back: each takes an iteration number. */
  private started = 0;
  private readonly lanes = new Map<number, Promise<void>>();
  private landing: Promise<void> | null = null;
  private readonly landedThisRun = new Set<string>();
  /** An error in a worker, the merge queue or a chore: the run stops everything and ends with it. */
  private readonly errors: unknown[] = [];
  private readonly chores = new Set<Promise<void>>();
  private readonly holds: StartHolds;
  private readonly stopped: Promise<void>;

  private constructor(
    readonly run: ParallelRun,
    private readonly options: ScheduleOptions,
    private readonly agents: AgentRotation,
    private readonly hooks: HookRunner,
    private readonly maxIterations: () => number,
    /** The iteration number this session starts after: `iteration N/last` numbers go on from it. */
    private readonly iterationsBefore: number,
  ) {
    const { ctx } = run;
    this.holds = new StartHolds(agents, [ctx.stopSignal, ctx.killSignal], options.abortAll);
    this.stopped = new Promise<void>((resolve) => {
      if (ctx.stopSignal.aborted || ctx.killSignal.aborted) resolve();
      ctx.stopSignal.addEventListener('abort', () => resolve(), { once: true });
      ctx.killSignal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  static async open(options: ScheduleOptions): Promise<Schedule> {
    const { ctx, store, workers } = options;
    const prd = await readTaskFile(ctx);
    const limits = announceRun(
      ctx,
      prd,
      options.resumed,
      store.current.totals.costUsd,
      store.current.iteration,
    );
    ctx.emit({ type: 'parallel-started', workers, prdBranch: options.prdBranch });
    const hooks = createRunHooks(ctx, (e) => ctx.emit({ ...e, worker: 'merge' }));
    const agents = runAgentRotation(ctx);
    let schedule: Schedule | undefined;
    let checkout: Promise<unknown> = Promise.resolve();
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
      meanwhile: (work) => schedule?.chore(work),
    };
    schedule = new Schedule(
      run,
      options,
      agents,
      hooks,
      iterationLimit(ctx, limits),
      store.current.iteration,
    );
    return schedule;
  }

  private get ctx(): RunContext {
    return this.run.ctx;
  }

  private chore(work: () => Promise<void>): void {
    const chore = work()
      .catch((error: unknown) => void this.errors.push(error))
      .finally(() => this.chores.delete(chore));
    this.chores.add(chore);
  }

  private interrupt(): Interrupt {
    return this.ctx.killSignal.aborted ? 'immediate' : this.ctx.stopSignal.aborted ? 'graceful' : 'none';
  }

  /** After an error anywhere, everything is stopped and the run ends with the error. */
  async failOnError(): Promise<void> {
    if (this.errors.length === 0) return;
    this.options.abortAll();
    await Promise.allSettled([...this.lanes.values(), this.landing, ...this.chores]);
    throw this.errors[0];
  }

  /** The decision core's answer for the run as it is now. */
  decide(): NextStep<StopReason> {
    const { run, ctx } = this;
    const { store } = run;
    const interrupt = this.interrupt();
    const parked = Object.entries(store.current.stories).flatMap(([id, s]) => (s.parked ? [id] : []));
    const totals = store.current.totals;
    return nextStoryStep({
      stories: run.prd.stories,
      scope: { onlyStoryId: ctx.onlyStoryId, resumeFromId: ctx.resumeFromId },
      parked: new Set(parked),
      asked: run.desk.waiting(),
      busy: new Set([...run.busy, ...heldByReservation(run.prd.stories, run.reserved)]),
      ...(run.reserved ? { first: new Set([run.reserved.storyId]) } : {}),
      passedThisRun: this.landedThisRun,
      workers: run.workers,
      running: this.lanes.size,
      landing: this.landing === null ? 0 : 1,
      // After a second Ctrl-C verified work is not landed now: it waits on its branch for the next run.
      toLand: interrupt === 'immediate' ? 0 : run.queue.length,
      interrupt,
      holding: this.holds.holding,
      ...(this.holds.stopFor ? { stopFor: this.holds.stopFor } : {}),
      waitForAnswers: ctx.waitForAnswers ?? false,
      limits: decisionLimits(ctx, this.maxIterations()),
      // Running attempts have not reported their cost yet.
      spend: {
        attempts: this.attempts,
        costUsd: totals.costUsd,
        finishedIterations: totals.iterations - this.lanes.size,
      },
      storySpend: (id) => storyRun(store.current, id),
    });
  }

  /** Starts the next landing when the merge queue is free; a story that lost a race lands next. */
  landNext(): void {
    const { run } = this;
    const interrupt = this.interrupt();
    // While a rate limit holds, the story that lost a race waits with the rest.
    const next =
      interrupt === 'immediate' || (run.reserved !== null && this.holds.holding)
        ? undefined
        : nextToLand(run.queue, run.reserved, run.prd.stories);
    if (this.landing !== null || next === undefined) return;
    run.queue.splice(run.queue.indexOf(next), 1);
    this.landing = this.landTurn(next)
      .then((end) => {
        if (end === 'landed') this.landedThisRun.add(next.storyId);
        // Redone from the new tip: the attempt that made the dropped work is given back.
        if (end === 'requeued') this.attempts--;
      })
      .catch((error: unknown) => void this.errors.push(error))
      .finally(() => {
        this.landing = null;
      });
  }

  /** One turn of the merge queue: land the story; a race is settled (resolved, else requeued) in the same turn. */
  private async landTurn(item: Verified): Promise<RaceEnd> {
    const { run } = this;
    const end = await run.inCheckout(async () => {
      // What background hooks wrote lands first, while the PRD checkout is on its branch.
      await this.hooks.betweenIterations();
      return landNext(run, item);
    });
    if (end.kind !== 'race') return end.kind;
    const settled = await settleRace(run, item, end);
    if (typeof settled !== 'object') return settled;
    const emit = run.laneEmit('merge', item.storyId);
    const { held } = settled;
    const hit = { iteration: item.iteration };
    if (held.kind === 'outside')
      this.holds.outage(emit, item.storyId, { ...hit, failure: held.failure }, run.agent());
    else this.holds.limit(emit, item.storyId, { ...hit, rateLimit: { message: held.reason } }, run.agent());
    return settled;
  }

  /** A worker lane for the story, on the first free worker. */
  start(storyId: string): void {
    const { run } = this;
    const story = run.prd.stories.find((s) => s.id === storyId);
    if (!story) return;
    this.attempts++;
    this.started++;
    run.busy.add(story.id);
    const worker = firstFree(this.lanes, run.workers);
    const agent = this.agents.current();
    // As the run started announced it, on every lane alike (lanes take their numbers as they start, so
    // the numbers taken so far cannot tell): this session's limit after the numbers before it, plus one
    // for each attempt given back (it took a number without counting).
    const lastIteration = this.iterationsBefore + this.maxIterations() + (this.started - this.attempts);
    const lane = runWorkerLane(run, worker, story, agent, lastIteration).then((result) => {
      const emit = run.laneEmit(worker, story.id);
      if (result.kind === 'rate-limited' || result.kind === 'aborted' || result.kind === 'outside')
        this.attempts--;
      if (result.kind === 'rate-limited') this.holds.limit(emit, story.id, result, agent);
      else if (result.kind === 'outside') this.holds.outage(emit, story.id, result, agent);
      else this.agents.succeeded();
    });
    this.lanes.set(
      worker,
      lane.catch((error: unknown) => void this.errors.push(error)).finally(() => this.lanes.delete(worker)),
    );
  }

  /** Spent up to --max-cost-per-story (an earlier run, a race's resolution): parked without another attempt. */
  async park(step: Extract<NextStep, { kind: 'park' }>): Promise<void> {
    const { run, ctx } = this;
    await run.store.update((s) => markParked(s, step.storyId, ctx.now()));
    ctx.emit({ type: 'story-parked', storyId: step.storyId, attempts: step.attempts, reason: step.reason });
    // A requeued story gives up the landing reserved for it.
    await releaseReservation(run, step.storyId);
  }

  /** A reservation no one can honour (its story is not ready, or may not start now) would hold up every landing. */
  async releaseStuckReservation(): Promise<boolean> {
    const { run } = this;
    const reserved = run.reserved?.storyId;
    const stuck = reservationHoldsUp({
      reserved,
      busy: run.busy,
      interrupt: this.interrupt(),
      holding: this.holds.holding,
      running: this.lanes.size,
      workers: run.workers,
    });
    if (!stuck || reserved === undefined) return false;
    await releaseReservation(run, reserved);
    return true;
  }

  /** Sits until what the step waits for happens. */
  async wait(what: Extract<NextStep, { kind: 'wait' }>['for']): Promise<void> {
    const { run, ctx } = this;
    if (what === 'answer') return waitForAnswer(ctx, run.desk, run.prd.stories);
    if (what === 'hold') return this.holds.any();
    const open = this.interrupt() === 'none';
    const wakeups: Promise<unknown>[] = [...this.lanes.values()];
    // An answer lets its story start while the others still run.
    if (open) wakeups.push(this.stopped, run.desk.changed());
    if (this.landing !== null) wakeups.push(this.landing);
    if (open) wakeups.push(...this.holds.all());
    await Promise.race(wakeups);
  }

  async finish(step: Stop<StopReason>): Promise<LoopOutcome> {
    const { run, ctx } = this;
    const reason = step.reason;
    const { exitCode, message } = step;
    await this.hooks.drain(60_000, ctx.killSignal);
    await Promise.all(this.chores);
    // Only verified work not yet landed (after a second Ctrl-C) keeps its branch, to land on the next run.
    const waiting = new Set(run.queue.map((q) => q.storyId));
    for (const story of run.prd.stories) {
      if (!waiting.has(story.id)) await removeStoryCheckout(run.root, storyCheckoutOf(ctx, story.id));
    }
    const state = await run.store.update((s) => markStopped(s, { reason, exitCode, now: ctx.now() }));
    const questions = openQuestionNotes(ctx.name, run.desk.open());
    announceFinish(ctx, run.prd, state, { reason, exitCode, message, iterations: this.attempts, questions });
    return { exitCode, reason };
  }
}

function firstFree(lanes: ReadonlyMap<number, unknown>, workers: number): number {
  for (let worker = 1; worker <= workers; worker++) if (!lanes.has(worker)) return worker;
  throw new Error('no free worker');
}
