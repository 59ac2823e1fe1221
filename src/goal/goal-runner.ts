import { wouldExceedCost } from '../core/budget.js';
import { ExitCode } from '../core/errors.js';
import type { HumanNeeded } from '../core/goal-types.js';
import { goalQuestionId, openQuestionNotes, waitingMessage } from '../core/questions.js';
import type { GoalStopReason } from '../events/run-event.js';
import { openAnswerDesk } from '../run/answer-desk.js';
import { recoverHooks } from '../run/hook-recovery.js';
import { createHookRunner } from '../run/hooks.js';
import { lockTakeoverEvent } from '../run/lock-events.js';
import { respondToLimit, respondToOutside, runAgentRotation } from '../run/outside-response.js';
import { removeStaleTemporaries } from '../state/atomic.js';
import { ensureRalphGitignore } from '../state/gitignore.js';
import { ralphDir } from '../state/layout.js';
import { acquireLock } from '../state/lock.js';
import type { GoalContext, GoalLoopOptions, GoalOutcome } from './goal-context.js';
import { alreadyComplete, goalFinished, recoverInterruptedIteration, stepCounts } from './goal-session.js';
import { runGoalIteration } from './iteration.js';
import { repoRelativeGoalFile, selectionFor } from './next-iteration.js';
import { goalRunFiles, readGoalProgress } from './progress-file.js';
import { ProgressStore } from './progress-store.js';
import {
  beginSession,
  markStopped,
  newGoalProgress,
  undoIteration,
  upsertHookTask,
} from './progress-update.js';
import {
  type IterationInfo,
  recordFailedIteration,
  recordResult,
  rollBack,
  runHooks,
} from './record-outcome.js';
import { prepareGoalTree } from './tree.js';

export type { GoalOutcome } from './goal-context.js';

/**
 * Goal mode (Ralph Mode, seed 004): plan → execute → reflect, one fresh agent
 * per iteration, until the agent reports the goal complete (and the tool
 * accepts it), asks for a human, or a limit stops the run. Per-iteration
 * hooks run after every iteration that reached an outcome.
 */
export async function runGoalLoop(options: GoalLoopOptions): Promise<GoalOutcome> {
  const files = goalRunFiles(options.runDir);
  const now = options.now ?? (() => new Date());
  const { emit } = options;
  const { spec } = options;
  const lock =
    options.lock ??
    (await acquireLock(files.lock, {
      command: `ralph goal ${spec.name}`,
      ...(options.force ? { force: true } : {}),
    }));
  try {
    const takeover = lockTakeoverEvent(lock);
    if (takeover) emit(takeover);
    await ensureRalphGitignore(options.cwd);
    for (const dir of [files.dir, ralphDir(options.cwd)]) await removeStaleTemporaries(dir);
    const goalFileInRepo = repoRelativeGoalFile(options.cwd, spec.goalFile);
    const saved = await readGoalProgress(files.progress);
    if (saved?.status === 'goal-complete' && saved.current === null) {
      return alreadyComplete(saved, emit, files.progress);
    }
    const fresh = saved ?? newGoalProgress(spec, now(), goalFileInRepo);
    const progress = beginSession(fresh, spec, {
      maxIterations: options.limits.maxIterations,
      ...(goalFileInRepo !== undefined ? { goalFile: goalFileInRepo } : {}),
    });
    const store = new ProgressStore(files.progress, progress, now);
    const desk = await openAnswerDesk({ runDir: files.dir, emit, now });
    try {
      const ctx: GoalContext = {
        ...options,
        files,
        now,
        emit,
        store,
        desk,
        ...(goalFileInRepo !== undefined ? { goalFileInRepo } : {}),
      };
      await recoverInterruptedIteration(ctx);
      await recoverHooks(ctx.cwd, files.dir, spec.name, emit);
      const stashed = await prepareGoalTree(ctx);
      if (stashed) emit({ type: 'changes-stashed', ...stashed });
      await store.update((p) => p);
      return await iterate(ctx, saved !== null);
    } finally {
      desk.close();
    }
  } finally {
    if (options.lock === undefined) await lock.release();
  }
}

async function iterate(ctx: GoalContext, resumed: boolean): Promise<GoalOutcome> {
  const { store, limits } = ctx;
  const hooks = createHookRunner({
    hooks: ctx.spec.hooks,
    cwd: ctx.cwd,
    runDir: ctx.runDir,
    agent: ctx.agent,
    emit: ctx.emit,
    onRecord: (record) => {
      store.update((p) => upsertHookTask(p, record)).catch(() => undefined);
    },
    env: { ...process.env },
    timeoutMs: limits.timeoutMs,
    idleTimeoutMs: limits.idleTimeoutMs,
    ...(ctx.wrap ? { wrap: ctx.wrap } : {}),
    now: ctx.now,
  });
  const start = store.get();
  const steps = stepCounts(start);
  ctx.emit({
    type: 'run-started',
    name: ctx.spec.name,
    project: start.goal.trim().split('\n')[0] ?? ctx.spec.name,
    agent: ctx.agent.adapter.name,
    cwd: ctx.cwd,
    maxIterations: start.stats.maxIterations,
    remaining: steps.total - steps.completed,
    resumed,
    passed: steps.completed,
    total: steps.total,
    costUsd: start.stats.costUsd,
    ...(ctx.wrap?.label ? { sandbox: ctx.wrap.label } : {}),
    goal: {
      text: start.goal,
      iterationsBefore: start.stats.currentIteration,
      minIterations: start.ralph.minIterations,
      idleThreshold: start.ralph.idleThreshold,
      steps,
    },
  });

  let iterations = 0;
  const agents = runAgentRotation(ctx);
  const outside = { emit: ctx.emit, agents, signals: [ctx.stopSignal, ctx.killSignal] };
  const finish = async (
    reason: GoalStopReason,
    exitCode: ExitCode,
    message: string,
    extra: { finalSummary?: string; humanNeeded?: HumanNeeded } = {},
  ): Promise<GoalOutcome> => {
    const questions = openQuestionNotes(ctx.spec.name, ctx.desk.open());
    await hooks.drain(limits.hookDrainMs, ctx.killSignal);
    await store.update((p) => markStopped(p, { reason, exitCode, now: ctx.now() }));
    await store.flush();
    ctx.emit(
      goalFinished(store.get(), {
        exitCode,
        reason,
        message,
        iterations,
        ...extra,
        questions,
        progressFile: ctx.files.progress,
      }),
    );
    return { exitCode, reason };
  };

  for (;;) {
    if (ctx.stopSignal.aborted || ctx.killSignal.aborted) {
      return finish('interrupted', ExitCode.Interrupted, 'stopped');
    }
    const open = ctx.desk.open();
    if (ctx.waitForAnswers && open.length > 0) {
      // `--wait`: the run sits until a person answers what it asked (or Ctrl-C), then goes on with the answer.
      ctx.emit({ type: 'waiting', reason: 'question', message: waitingMessage(open) });
      await ctx.desk.nextAnswer(ctx.stopSignal, ctx.killSignal);
      continue;
    }
    const progress = store.get();
    if (iterations >= limits.maxIterations) {
      return finish(
        'max-iterations',
        ExitCode.LimitReached,
        `reached the limit of ${limits.maxIterations} iterations without completing the goal`,
      );
    }
    const spend = { costUsd: progress.stats.costUsd, iterations: progress.iterations.length };
    if (wouldExceedCost(spend, limits.maxCostUsd)) {
      return finish(
        'max-cost',
        ExitCode.LimitReached,
        `stopped before exceeding the $${limits.maxCostUsd} budget`,
      );
    }
    const selection = selectionFor(progress);
    // What background hooks wrote lands now, before the iteration records its HEAD.
    await hooks.betweenIterations();
    const agent = agents.current();
    const run = await runGoalIteration(ctx, selection, agent);
    const { outcome } = run;
    if (outcome.kind === 'aborted' || outcome.kind === 'rate-limited' || outcome.kind === 'outside') {
      // None counts: the iteration is rolled back as if it never ran.
      await rollBack(ctx, run);
      await store.update(undoIteration);
      if (outcome.kind === 'aborted') {
        return finish(
          'interrupted',
          ExitCode.Interrupted,
          'stopped; the interrupted iteration was rolled back',
        );
      }
      const at = { iteration: run.iteration };
      if (outcome.kind === 'outside') {
        const answer = await respondToOutside(outside, outcome.failure, agent, at);
        if (answer.kind === 'stop') return finish(answer.reason, answer.exitCode, answer.message);
        continue;
      }
      const limit = { message: outcome.message, ...(outcome.resetsAt ? { resetsAt: outcome.resetsAt } : {}) };
      await respondToLimit(outside, limit, agent, at);
      continue;
    }
    agents.succeeded();
    iterations++;
    const info: IterationInfo = {
      iteration: run.iteration,
      mode: selection.mode,
      ...(selection.mode === 'executing' ? { stepId: selection.step.id } : {}),
      now: ctx.now(),
      usage: run.usage,
    };

    if (outcome.kind === 'failed') {
      const consecutive = await recordFailedIteration(ctx, run, info, outcome);
      await runHooks(hooks, ctx, run, info);
      if (consecutive >= limits.maxConsecutiveFailures) {
        return finish(
          'failures',
          ExitCode.WorkLeft,
          `stopped with work left: ${consecutive} iterations in a row failed (last: ${outcome.reason})`,
        );
      }
      continue;
    }

    const decision = await recordResult(ctx, run, info, outcome);
    await runHooks(hooks, ctx, run, info);
    if (decision.kind === 'complete') {
      return finish('goal-complete', ExitCode.Success, `goal complete in iteration ${run.iteration}`, {
        finalSummary: decision.summary,
      });
    }
    if (decision.kind === 'needs-human') {
      const { reason, details } = decision.humanNeeded;
      await ctx.desk.ask({
        id: goalQuestionId(run.iteration),
        question: details.trim() === '' ? reason : `${reason}\n${details}`,
        iteration: run.iteration,
      });
      if (ctx.waitForAnswers) continue;
      return finish('needs-human', ExitCode.WorkLeft, `stopped: iteration ${run.iteration} needs a human`, {
        humanNeeded: decision.humanNeeded,
      });
    }
  }
}
