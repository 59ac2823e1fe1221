import { storyBudgetReason, wouldExceedCost } from '../core/budget.js';
import { ExitCode } from '../core/errors.js';
import { storiesLeft } from '../core/forecast.js';
import { answeredLearning, openQuestionNotes, waitingMessage } from '../core/questions.js';
import { allDoneMessage } from '../core/scope-summary.js';
import { selectNextStory } from '../core/select.js';
import type { StopReason } from '../events/run-event.js';
import { type AnswerDesk, openAnswerDesk } from '../run/answer-desk.js';
import { lockTakeoverEvent } from '../run/lock-events.js';
import { respondToLimit, respondToOutside, runAgentRotation } from '../run/outside-response.js';
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
import {
  addUsage,
  markFailed,
  markParked,
  markStopped,
  newRunState,
  storyRun,
} from '../state/run-state-update.js';
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
    const desk = await openAnswerDesk({ runDir: files.dir, emit: ctx.emit, now });
    try {
      return await iterate(ctx, state, resumed, desk);
    } finally {
      desk.close();
    }
  } finally {
    if (options.lock === undefined) await lock.release();
  }
}

async function iterate(
  ctx: RunContext,
  initial: RunState,
  resumed: boolean,
  desk: AnswerDesk,
): Promise<LoopOutcome> {
  let state = initial;
  let prd = await readTaskFile(ctx);
  const scope = { onlyStoryId: ctx.onlyStoryId, resumeFromId: ctx.resumeFromId };
  const { baseMaxIterations, maxIterations: steeredAtStart } = announceRun(
    ctx,
    prd,
    resumed,
    state.totals.costUsd,
    state.iteration,
  );
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
  const agents = runAgentRotation(ctx);
  const outside = { emit: ctx.emit, agents, signals: [ctx.stopSignal, ctx.killSignal] };
  const finish = async (reason: StopReason, exitCode: ExitCode, message: string): Promise<LoopOutcome> => {
    await hooks.drain(60_000, ctx.killSignal);
    // A stop can come right after a pass: count what the task file says now, not at the last selection.
    prd = await readTaskFile(ctx).catch(() => prd);
    state = markStopped(state, { reason, exitCode, now: ctx.now() });
    await saveState(ctx, state);
    const questions = openQuestionNotes(ctx.name, desk.open());
    announceFinish(ctx, prd, state, { reason, exitCode, message, iterations, questions });
    return { exitCode, reason };
  };

  for (;;) {
    if (ctx.stopSignal.aborted || ctx.killSignal.aborted)
      return finish('interrupted', ExitCode.Interrupted, 'stopped');
    prd = await readTaskFile(ctx);
    await desk.poll();
    const parked = new Set(Object.entries(state.stories).flatMap(([id, s]) => (s.parked ? [id] : [])));
    const selection = selectNextStory(prd.stories, { ...scope, parked, waiting: desk.waiting() });
    if (selection.kind === 'all-done')
      return finish('all-done', ExitCode.Success, allDoneMessage(prd.stories, scope, passedThisRun));
    if (selection.kind === 'blocked') {
      const blocked = new Set(selection.waiting.map((w) => w.id));
      const open = desk.open().filter((q) => q.storyId !== undefined && blocked.has(q.storyId));
      const asking = new Set(open.map((q) => q.storyId));
      if (open.length > 0 && ctx.waitForAnswers) {
        // `--wait`: the run sits until a person answers (or Ctrl-C), then picks again.
        const [only] = open;
        ctx.emit({
          type: 'waiting',
          reason: 'question',
          message: waitingMessage(open),
          ...(open.length === 1 && only?.storyId ? { storyId: only.storyId } : {}),
        });
        await desk.nextAnswer(ctx.stopSignal, ctx.killSignal);
        continue;
      }
      const waiting = selection.waiting.map((w) =>
        asking.has(w.id)
          ? `${w.id} (waits for an answer)`
          : w.parked
            ? `${w.id} (parked)`
            : `${w.id} (waits on ${w.waitingOn.join(', ')})`,
      );
      const message = `stopped with work left: ${waiting.join('; ')}`;
      return open.length > 0
        ? finish('questions', ExitCode.WorkLeft, message)
        : finish('blocked', ExitCode.WorkLeft, message);
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
      // Spent already (in an earlier run, or by attempts not counted: an outage, a question): parked without another.
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
    const agent = agents.current();
    // Iteration numbers go on over every session; the limit counts this session's counted iterations.
    const lastIteration = state.iteration + maxIterations - iterations;
    const result = await runStoryAttempt(
      ctx,
      state,
      selection.story,
      agent,
      desk.answered(selection.story.id),
      lastIteration,
    );
    state = result.state;
    const { verdict, story } = result;
    if (verdict.kind === 'rate-limited' || verdict.kind === 'outside') {
      // Not the story's doing: rolled back, and not counted.
      await rollBack(ctx, story.id, result.state.current?.attempt ?? 1, result.headBefore);
      state = undoAttempt(state, story.id, ctx.now());
      await saveState(ctx, state);
      const at = { iteration: state.iteration, storyId: story.id };
      if (verdict.kind === 'outside') {
        const answer = await respondToOutside(outside, verdict.failure, agent, at);
        if (answer.kind === 'stop') return finish(answer.reason, answer.exitCode, answer.message);
        continue;
      }
      const limit = {
        message: result.rateLimit?.message ?? 'rate limited',
        ...(result.rateLimit?.resetsAt ? { resetsAt: result.rateLimit.resetsAt } : {}),
        ...(verdict.quota ? { quota: true } : {}),
      };
      await respondToLimit(outside, limit, agent, at);
      continue;
    }
    agents.succeeded();
    iterations++;

    // A story's time is the time its counted attempts ran, not time waited or interrupted.
    const timed = (s: typeof state) => addUsage(s, story.id, { durationMs: result.durationMs }, ctx.now());
    if (verdict.kind === 'pass') {
      state = await recordPass(ctx, timed(state), {
        story,
        headBefore: result.headBefore,
        commits: result.commits,
        summary: result.summary,
        // What a person answered the story is worth knowing for the stories after it.
        learnings: [...result.signals.learn, ...desk.answered(story.id).map(answeredLearning)],
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
    if (verdict.kind === 'question') {
      // The story waits for a person; asking is not failing, so the attempt does not count.
      state = undoAttempt(state, story.id, ctx.now());
      await saveState(ctx, state);
      await desk.ask({
        id: story.id,
        storyId: story.id,
        question: verdict.question,
        iteration: state.iteration,
      });
      await afterIteration(story.id);
      continue;
    }
    if (verdict.kind === 'aborted') {
      // Stopped by the user, not the story's fault: the attempt does not count.
      state = undoAttempt(state, story.id, ctx.now());
      await saveState(ctx, state);
      return finish('interrupted', ExitCode.Interrupted, 'stopped; the interrupted attempt was rolled back');
    }
    const overBudgetNow = storyBudgetReason(storyRun(state, story.id).costUsd, ctx.limits.maxCostPerStoryUsd);
    const park = attempt >= ctx.limits.maxRetries || overBudgetNow !== null;
    state = markFailed(timed(state), story.id, {
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
      durationMs: result.durationMs,
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
