import { storyBudgetReason, wouldExceedCost } from '../core/budget.js';
import { ExitCode } from '../core/errors.js';
import { storiesLeft } from '../core/forecast.js';
import { allDoneMessage } from '../core/scope-summary.js';
import { selectNextStory } from '../core/select.js';
import type { StopReason } from '../events/run-event.js';
import { AgentRotation } from '../run/agent-rotation.js';
import { lockTakeoverEvent } from '../run/lock-events.js';
import { readTaskFile } from '../run/read-task-file.js';
import { recordPass } from '../run/record-pass.js';
import { announceFinish, announceRun, createRunHooks } from '../run/run-bounds.js';
import type { LoopOptions, LoopOutcome, RunContext } from '../run/run-context.js';
import { beginSession } from '../run/session-start.js';
import { saveState } from '../run/state-io.js';
import { rollBack } from '../run/story-rollback.js';
import { undoAttempt } from '../run/undo-attempt.js';
import { iterationLogPath, runFiles } from '../state/layout.js';
import { acquireLock } from '../state/lock.js';
import { runForecast } from '../state/run-forecast.js';
import { type RunState, readRunState } from '../state/run-state.js';
import { markFailed, markParked, markStopped, newRunState, storyRun } from '../state/run-state-update.js';
import { runStoryAttempt } from './story-attempt-run.js';

/**
 * The Ralph loop: select → record HEAD → prompt → spawn → parse → verify →
 * record, until every story in scope has passed or a stop rule fires.
 */
export type { LoopOutcome } from '../run/run-context.js';

export async function runLoop(options: LoopOptions): Promise<LoopOutcome> {
  const files = runFiles(options.runDir);
  const now = options.now ?? (() => new Date());
  const ctx: RunContext = { ...options, files, now };

  const lock = options.lock ?? (await acquireLock(files.lock, { command: `ralph run ${ctx.name}` }));
  try {
    const takeover = lockTakeoverEvent(lock);
    if (takeover) ctx.emit(takeover);
    const saved = await readRunState(files.state);
    const resumed = saved !== null && (saved.current !== null || saved.stop === undefined);
    const state = await beginSession(
      ctx,
      saved ?? newRunState({ name: ctx.name, taskPath: ctx.source.path, now: now() }),
      { hooks: true },
    );
    return await iterate(ctx, state, resumed);
  } finally {
    if (options.lock === undefined) await lock.release();
  }
}

async function iterate(ctx: RunContext, initial: RunState, resumed: boolean): Promise<LoopOutcome> {
  let state = initial;
  let prd = await readTaskFile(ctx);
  const scope = { onlyStoryId: ctx.onlyStoryId, resumeFromId: ctx.resumeFromId };
  const { baseMaxIterations, maxIterations: steeredAtStart } = announceRun(ctx, prd, resumed);
  let maxIterations = steeredAtStart;
  const hooks = createRunHooks(ctx);
  const afterIteration = (storyId: string) =>
    hooks.afterIteration({
      iteration: state.iteration,
      runId: ctx.name,
      transcript: iterationLogPath(ctx.files.dir, state.iteration),
      storyId,
      prd: ctx.source.path,
    });
  let iterations = 0;
  const passedThisRun = new Set<string>();
  const agents = new AgentRotation({
    primary: ctx.agent,
    fallbacks: ctx.fallbackAgents ?? [],
    backoffMs: ctx.limits.rateLimitBackoffMs,
    now: ctx.now,
  });
  const finish = async (reason: StopReason, exitCode: ExitCode, message: string): Promise<LoopOutcome> => {
    await hooks.drain(60_000, ctx.killSignal);
    // A stop can come right after a pass: count what the task file says now, not at the last selection.
    prd = await readTaskFile(ctx).catch(() => prd);
    state = markStopped(state, { reason, exitCode, now: ctx.now() });
    await saveState(ctx, state);
    announceFinish(ctx, prd, state, { reason, exitCode, message, iterations });
    return { exitCode, reason };
  };

  for (;;) {
    if (ctx.stopSignal.aborted || ctx.killSignal.aborted)
      return finish('interrupted', ExitCode.Interrupted, 'stopped');
    prd = await readTaskFile(ctx);
    const parked = new Set(Object.entries(state.stories).flatMap(([id, s]) => (s.parked ? [id] : [])));
    const selection = selectNextStory(prd.stories, { ...scope, parked });
    if (selection.kind === 'all-done')
      return finish('all-done', ExitCode.Success, allDoneMessage(prd.stories, scope, passedThisRun));
    if (selection.kind === 'blocked') {
      const waiting = selection.waiting.map((w) =>
        w.parked ? `${w.id} (parked)` : `${w.id} (waits on ${w.waitingOn.join(', ')})`,
      );
      return finish('blocked', ExitCode.WorkLeft, `stopped with work left: ${waiting.join('; ')}`);
    }
    const steered = ctx.steering?.maxIterations ?? baseMaxIterations;
    if (steered !== maxIterations) {
      maxIterations = steered;
      ctx.limits = { ...ctx.limits, maxIterations };
      ctx.emit({ type: 'max-iterations-changed', maxIterations });
    }
    if (iterations >= maxIterations) {
      return finish(
        'max-iterations',
        ExitCode.LimitReached,
        `reached the limit of ${maxIterations} iteration${maxIterations === 1 ? '' : 's'}`,
      );
    }
    if (wouldExceedCost(state.totals, ctx.limits.maxCostUsd)) {
      return finish(
        'max-cost',
        ExitCode.LimitReached,
        `stopped before exceeding the $${ctx.limits.maxCostUsd} budget`,
      );
    }

    const spentAlready = storyRun(state, selection.story.id);
    const overBudget = storyBudgetReason(spentAlready.costUsd, ctx.limits.maxCostPerStoryUsd);
    if (overBudget !== null) {
      // Spent in an earlier run, before this budget: parked without another attempt.
      state = markParked(state, selection.story.id, ctx.now());
      await saveState(ctx, state);
      ctx.emit({
        type: 'story-parked',
        storyId: selection.story.id,
        attempts: spentAlready.attempts,
        reason: overBudget,
      });
      continue;
    }

    // What background hooks wrote lands now, before the attempt records its HEAD.
    await hooks.betweenIterations();
    const result = await runStoryAttempt(ctx, state, selection.story, agents.current());
    state = result.state;
    const { verdict, story } = result;
    if (verdict.kind === 'rate-limited') {
      await rollBack(ctx, story.id, result.state.current?.attempt ?? 1, result.headBefore);
      state = undoAttempt(state, story.id, ctx.now());
      await saveState(ctx, state);
      const limit = {
        message: result.rateLimit?.message ?? 'rate limited',
        ...(result.rateLimit?.resetsAt ? { resetsAt: result.rateLimit.resetsAt } : {}),
      };
      await agents.rateLimited(
        limit,
        {
          switched: (from, to, reason) => ctx.emit({ type: 'agent-switched', from, to, reason }),
          waiting: (waitMs) =>
            ctx.emit({
              type: 'rate-limited',
              iteration: state.iteration,
              storyId: story.id,
              waitMs,
              ...limit,
            }),
        },
        ctx.stopSignal,
        ctx.killSignal,
      );
      continue;
    }
    agents.succeeded();
    iterations++;

    if (verdict.kind === 'pass') {
      state = await recordPass(ctx, state, {
        story,
        headBefore: result.headBefore,
        commits: result.commits,
        summary: result.summary,
        learnings: result.signals.learn,
      });
      passedThisRun.add(story.id);
      const forecast = runForecast(state, storiesLeft(prd.stories, scope, parked, story.id));
      ctx.emit({
        type: 'story-passed',
        iteration: state.iteration,
        storyId: story.id,
        title: story.title,
        attempt: state.stories[story.id]?.attempts ?? 1,
        commits: result.commits,
        costUsd: state.stories[story.id]?.costUsd ?? result.costUsd,
        durationMs: state.stories[story.id]?.durationMs ?? result.durationMs,
        ...(forecast ? { forecast } : {}),
      });
      await afterIteration(story.id);
      continue;
    }

    const attempt = state.current?.attempt ?? 1;
    await rollBack(ctx, story.id, attempt, result.headBefore);
    if (verdict.kind === 'aborted') {
      // Stopped by the user, not the story's fault: the attempt does not count.
      state = undoAttempt(state, story.id, ctx.now());
      await saveState(ctx, state);
      return finish('interrupted', ExitCode.Interrupted, 'stopped; the interrupted attempt was rolled back');
    }
    const overBudgetNow = storyBudgetReason(storyRun(state, story.id).costUsd, ctx.limits.maxCostPerStoryUsd);
    const park = attempt >= ctx.limits.maxRetries || overBudgetNow !== null;
    state = markFailed(state, story.id, {
      reason: verdict.reason,
      kind: verdict.kind,
      now: ctx.now(),
      park,
      // The retry prompt shows the failing check's own words, not just its exit code.
      ...(verdict.gateOutputTail ? { gateOutputTail: verdict.gateOutputTail } : {}),
    });
    await saveState(ctx, state);
    ctx.emit({
      type: 'attempt-failed',
      iteration: state.iteration,
      storyId: story.id,
      attempt,
      maxAttempts: ctx.limits.maxRetries,
      kind: verdict.kind,
      reason: verdict.reason,
      willRetry: !park,
    });
    if (park)
      ctx.emit({
        type: 'story-parked',
        storyId: story.id,
        attempts: attempt,
        reason: overBudgetNow ?? verdict.reason,
      });
    await afterIteration(story.id);
  }
}
