import { existsSync } from 'node:fs';
import { wouldExceedCostInFlight } from '../core/budget.js';
import { ExitCode } from '../core/errors.js';
import { readyStories } from '../core/ready.js';
import { remainingStories } from '../core/select.js';
import { storyBranchName } from '../core/story-ref.js';
import type { Prd, Story } from '../core/types.js';
import { removeStoryCheckout } from '../git/story-worktree.js';
import type { AgentSetup, RunContext } from '../loop/context.js';
import type { LoopOutcome } from '../loop/engine.js';
import type { LoopEvent, LoopEventSink, StopReason } from '../loop/events.js';
import { readTaskFile } from '../loop/read-task-file.js';
import { rollBack } from '../loop/rollback.js';
import { announceFinish, announceRun, createRunHooks } from '../loop/run-bounds.js';
import { rateLimitWait, sleep } from '../loop/waits.js';
import { iterationLogPath } from '../state/layout.js';
import { addUsage, markFailed, markPassed, markStopped, storyRun } from '../state/run-state-update.js';
import {
  endIntegrating,
  endRunning,
  startIntegrating,
  startRunning,
  updateRunning,
} from '../state/running-attempts.js';
import { landStory } from './land-story.js';
import type { WaitingStory } from './recovery.js';
import type { StateStore } from './state-store.js';
import { storyCheckoutDir, workStory } from './work-story.js';

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
  /** Stops every agent and gate at once (after an error); `ctx.killSignal` follows it. */
  abortAll(): void;
}

interface Verified extends WaitingStory {
  iteration: number;
}

/**
 * The parallel run: up to `workers` stories at once, each attempt in its
 * own checkout (`workStory`), verified stories landed one at a time in the
 * order they passed (`landStory`), new stories picked as the PRD branch
 * moves (`readyStories`). The three talk only through git (the PRD branch,
 * the story branches and their verdicts) and the task file on the PRD
 * branch; what this function keeps in memory is which workers are busy.
 */
export async function schedule(options: ScheduleOptions): Promise<LoopOutcome> {
  const { ctx, store, root, prdBranch, workers } = options;
  const scope = { onlyStoryId: ctx.onlyStoryId, resumeFromId: ctx.resumeFromId };
  let prd = await readTaskFile(ctx);
  const { baseMaxIterations, maxIterations: steeredAtStart } = announceRun(ctx, prd, options.resumed);
  let maxIterations = steeredAtStart;
  ctx.emit({ type: 'parallel-started', workers, prdBranch });
  const hooks = createRunHooks(ctx, (e) => ctx.emit({ ...e, worker: 'merge' }));
  const agents = [ctx.agent, ...(ctx.fallbackAgents ?? [])];
  let agentIndex = 0;
  let rateLimitStreak = 0;
  let holdUntil = 0;
  /** Attempts started this session that count (rate-limited and interrupted ones are given back). */
  let attempts = 0;
  const lanes = new Map<number, Promise<void>>();
  /** Stories running or verified and waiting to land: never started twice. */
  const busy = new Set<string>();
  const queue: Verified[] = options.waiting.map((w) => ({ ...w, iteration: store.current.iteration }));
  for (const w of queue) busy.add(w.storyId);
  let landing: Promise<void> | null = null;
  /** An error in a worker or the merge queue: the run stops everything and ends with it. */
  const errors: unknown[] = [];
  const laneEmit =
    (worker: number | 'merge', storyId: string): LoopEventSink =>
    (event) =>
      ctx.emit({ ...event, worker, storyId: event.storyId ?? storyId });
  const afterIteration = (iteration: number, storyId: string) =>
    hooks.afterIteration({
      iteration,
      runId: ctx.name,
      transcript: iterationLogPath(ctx.files.dir, Math.max(1, iteration)),
      storyId,
      prd: ctx.source.path,
    });

  const runLane = async (worker: number, story: Story, agent: AgentSetup): Promise<void> => {
    const emit = laneEmit(worker, story.id);
    const result = await workStory({
      ctx,
      root,
      prdBranch,
      story,
      agent,
      emit,
      ...(storyRun(store.current, story.id).lastFailure
        ? { lastFailure: storyRun(store.current, story.id).lastFailure }
        : {}),
      record: {
        started: async (start) => {
          const state = await store.update((s) =>
            startRunning(s, { storyId: story.id, worker, now: ctx.now(), ...start }),
          );
          return { iteration: state.iteration, attempt: storyRun(state, story.id).attempts };
        },
        spawned: async (pid) => {
          await store.update((s) => updateRunning(s, story.id, { agentPid: pid, phase: 'agent' }));
        },
        token: async (token) => {
          await store.update((s) => updateRunning(s, story.id, { agentToken: token }));
        },
        agentDone: async (usage) => {
          await store.update((s) => addUsage(s, story.id, usage, ctx.now()));
        },
      },
    });
    const { attempt, iteration } = result;
    if (result.kind === 'verified') {
      rateLimitStreak = 0;
      await store.update((s) => endRunning(s, story.id, ctx.now()));
      emit({
        type: 'story-verified',
        storyId: story.id,
        attempt,
        branch: result.branch,
        commits: result.commits,
      });
      queue.push({ storyId: story.id, branch: result.branch, verdict: result.verdict, iteration });
      return;
    }
    if (result.kind === 'rate-limited' || result.kind === 'aborted') {
      attempts--;
      busy.delete(story.id);
      await store.update((s) => endRunning(s, story.id, ctx.now(), true));
      if (result.kind === 'rate-limited') holdStarts(emit, story.id, iteration, result.rateLimit);
      return;
    }
    rateLimitStreak = 0;
    await recordFailure(story, attempt, iteration, result.failure, emit, result.worktree, result.branch);
  };

  const holdStarts = (
    emit: LoopEventSink,
    storyId: string,
    iteration: number,
    rateLimit?: { message: string; resetsAt?: string },
  ) => {
    const limited = agents[agentIndex]?.adapter.name ?? 'agent';
    if (agentIndex + 1 < agents.length) {
      // New attempts go to the fallback at once; the other workers finish what they started.
      agentIndex++;
      emit({
        type: 'agent-switched',
        from: limited,
        to: agents[agentIndex]?.adapter.name ?? 'agent',
        reason: rateLimit?.message ?? 'rate limited',
      });
      return;
    }
    agentIndex = 0;
    const waitMs = rateLimitWait(
      ctx.limits.rateLimitBackoffMs,
      rateLimitStreak++,
      rateLimit?.resetsAt,
      ctx.now(),
    );
    holdUntil = Math.max(holdUntil, Date.now() + waitMs);
    emit({
      type: 'rate-limited',
      iteration,
      storyId,
      waitMs,
      message: rateLimit?.message ?? 'rate limited',
      ...(rateLimit?.resetsAt ? { resetsAt: rateLimit.resetsAt } : {}),
    });
  };

  const recordFailure = async (
    story: Story,
    attempt: number,
    iteration: number,
    failure: { kind: Parameters<typeof markFailed>[2]['kind']; reason: string; gateOutputTail?: string },
    emit: LoopEventSink,
    worktree: string,
    branch: string,
  ) => {
    const park = attempt >= ctx.limits.maxRetries;
    await store.update((s) =>
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
      iteration,
      storyId: story.id,
      attempt,
      maxAttempts: ctx.limits.maxRetries,
      kind: failure.kind as Extract<LoopEvent, { type: 'attempt-failed' }>['kind'],
      reason: failure.reason,
      willRetry: !park,
    });
    if (park) {
      emit({ type: 'story-parked', storyId: story.id, attempts: attempt, reason: failure.reason });
      await removeStoryCheckout(root, { dir: worktree, branch });
    }
    busy.delete(story.id);
    await afterIteration(iteration, story.id);
  };

  const land = async (item: Verified): Promise<void> => {
    const emit = laneEmit('merge', item.storyId);
    const story = prd.stories.find((s) => s.id === item.storyId);
    const dir = storyCheckoutDir(ctx.files.dir, item.storyId);
    if (!story) {
      // The story left the task file: its work has nowhere to land.
      await removeStoryCheckout(root, { dir, branch: item.branch });
      busy.delete(item.storyId);
      return;
    }
    emit({ type: 'integration-started', storyId: story.id, onto: prdBranch, queued: queue.length });
    const result = await landStory({
      ctx: { ...ctx, emit },
      prdBranch,
      story,
      verdict: item.verdict,
      iteration: item.iteration,
      emit,
      began: async (tipBefore, token) => {
        await store.update((s) =>
          startIntegrating(s, {
            storyId: story.id,
            checkout: ctx.cwd,
            branch: prdBranch,
            tipBefore,
            token,
            startedAt: ctx.now().toISOString(),
          }),
        );
      },
    });
    if (result.kind === 'aborted') {
      // Stopped now: the verified branch stays, and lands on the next run.
      await store.update((s) => endIntegrating(s, ctx.now()));
      return;
    }
    if (result.kind === 'rejected') {
      await store.update((s) => endIntegrating(s, ctx.now()));
      emit({
        type: 'integration-failed',
        storyId: story.id,
        kind: result.failure.kind === 'conflict' ? 'conflict' : 'check-failed',
        files: result.problem.kind === 'conflict' ? [...result.problem.files] : [],
        landedMeanwhile: result.landedMeanwhile,
      });
      if (existsSync(dir) && ctx.config.onFailure === 'keep') {
        await rollBack({ ...ctx, cwd: dir, emit }, story.id, item.verdict.attempt, item.verdict.base);
      }
      await removeStoryCheckout(root, { dir, branch: item.branch });
      await recordFailure(
        story,
        item.verdict.attempt,
        item.iteration,
        result.failure,
        emit,
        dir,
        item.branch,
      );
      return;
    }
    const commits = result.kind === 'landed' ? result.commits : [];
    const state = await store.update((s) =>
      endIntegrating(
        s.stories[story.id]?.passedAt && result.kind === 'already-landed'
          ? s
          : markPassed(s, story.id, { commits: commits.map((c) => c.sha), now: ctx.now() }),
        ctx.now(),
      ),
    );
    await removeStoryCheckout(root, { dir, branch: item.branch });
    prd = await readTaskFile(ctx);
    busy.delete(story.id);
    if (result.kind === 'landed') {
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
      });
      await afterIteration(item.iteration, story.id);
    }
  };

  const finish = async (reason: StopReason, exitCode: ExitCode, message: string): Promise<LoopOutcome> => {
    await hooks.drain(60_000, ctx.killSignal);
    const waiting = new Set(queue.map((q) => q.storyId));
    // Only verified work not yet landed (a second Ctrl-C) keeps its branch, to land on the next run.
    for (const story of prd.stories) {
      if (waiting.has(story.id)) continue;
      await removeStoryCheckout(root, {
        dir: storyCheckoutDir(ctx.files.dir, story.id),
        branch: storyBranchName(ctx.name, story.id),
      });
    }
    const state = await store.update((s) => markStopped(s, { reason, exitCode, now: ctx.now() }));
    announceFinish(ctx, prd, state, { reason, exitCode, message, iterations: attempts });
    return { exitCode, reason };
  };

  const stopped = new Promise<void>((resolve) => {
    if (ctx.stopSignal.aborted || ctx.killSignal.aborted) resolve();
    ctx.stopSignal.addEventListener('abort', () => resolve(), { once: true });
    ctx.killSignal.addEventListener('abort', () => resolve(), { once: true });
  });

  for (;;) {
    if (errors.length > 0) {
      options.abortAll();
      await Promise.allSettled([...lanes.values(), landing]);
      throw errors[0];
    }
    const stopping = ctx.stopSignal.aborted || ctx.killSignal.aborted;
    if (landing === null && !ctx.killSignal.aborted && queue.length > 0) {
      const next = queue.shift() as Verified;
      landing = land(next)
        .catch((error: unknown) => {
          errors.push(error);
        })
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
    let limit: StopReason | null = null;
    if (!stopping && Date.now() >= holdUntil) {
      const ready = readyStories(prd.stories, { ...scope, parked, busy, cap: workers - lanes.size });
      for (const story of ready) {
        const totals = store.current.totals;
        const finished = { costUsd: totals.costUsd, iterations: totals.iterations - lanes.size };
        if (attempts >= maxIterations) limit = 'max-iterations';
        else if (wouldExceedCostInFlight(finished, ctx.limits.maxCostUsd, lanes.size)) limit = 'max-cost';
        if (limit !== null) break;
        const worker = firstFree(lanes, workers);
        const agent = agents[agentIndex] ?? ctx.agent;
        attempts++;
        busy.add(story.id);
        lanes.set(
          worker,
          runLane(worker, story, agent)
            .catch((error: unknown) => {
              errors.push(error);
            })
            .finally(() => {
              lanes.delete(worker);
            }),
        );
      }
    }
    // After a second Ctrl-C verified work is not landed now: it waits on its branch for the next run.
    const toLand = ctx.killSignal.aborted ? 0 : queue.length;
    if (lanes.size === 0 && landing === null && toLand === 0 && errors.length === 0) {
      if (remainingStories(prd.stories, scope).length === 0)
        return finish('all-done', ExitCode.Success, 'all stories passed');
      if (ctx.killSignal.aborted)
        return finish(
          'interrupted',
          ExitCode.Interrupted,
          'stopped; the interrupted attempts were rolled back',
        );
      if (stopping) return finish('interrupted', ExitCode.Interrupted, 'stopped');
      if (limit === 'max-iterations')
        return finish(
          'max-iterations',
          ExitCode.LimitReached,
          `reached the limit of ${maxIterations} iterations`,
        );
      if (limit === 'max-cost')
        return finish(
          'max-cost',
          ExitCode.LimitReached,
          `stopped before exceeding the $${ctx.limits.maxCostUsd} budget`,
        );
      if (Date.now() < holdUntil) {
        await sleep(holdUntil - Date.now(), ctx.stopSignal, ctx.killSignal);
        continue;
      }
      const waiting = remainingStories(prd.stories, scope).map((s) =>
        parked.has(s.id)
          ? `${s.id} (parked)`
          : `${s.id} (waits on ${s.dependsOn.filter((d) => !isDone(prd, d)).join(', ')})`,
      );
      return finish('blocked', ExitCode.WorkLeft, `stopped with work left: ${waiting.join('; ')}`);
    }
    const wakeups: Promise<unknown>[] = [...lanes.values()];
    if (!stopping) wakeups.push(stopped);
    if (landing !== null) wakeups.push(landing);
    if (Date.now() < holdUntil && !stopping) wakeups.push(sleep(holdUntil - Date.now()));
    await Promise.race(wakeups);
  }
}

function firstFree(lanes: ReadonlyMap<number, unknown>, workers: number): number {
  for (let worker = 1; worker <= workers; worker++) if (!lanes.has(worker)) return worker;
  throw new Error('no free worker');
}

const isDone = (prd: Prd, id: string): boolean => prd.stories.some((s) => s.id === id && s.status === 'done');
