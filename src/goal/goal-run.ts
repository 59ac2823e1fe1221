import type { AgentSetup } from '../agents/adapter.js';
import { type GoalIterationEnd, nextGoalStep } from '../core/goal-next-step.js';
import type { HumanNeeded } from '../core/goal-types.js';
import type { NextStep, Stop } from '../core/next-step.js';
import { goalQuestionId, openQuestionNotes, waitingMessage } from '../core/questions.js';
import type { GoalStopReason } from '../events/run-event.js';
import type { AgentRotation } from '../run/agent-rotation.js';
import { createHookRunner, type HookRunner } from '../run/hooks.js';
import { respondToLimit, respondToOutside, runAgentRotation } from '../run/outside-response.js';
import type { GoalContext, GoalOutcome } from './goal-context.js';
import { goalFinished, stepCounts } from './goal-session.js';
import { type IterationRun, runGoalIteration } from './iteration.js';
import { selectionFor } from './next-iteration.js';
import { markStopped, undoIteration, upsertHookTask } from './progress-update.js';
import {
  type IterationInfo,
  recordFailedIteration,
  recordResult,
  rollBack,
  runHooks,
} from './record-outcome.js';

/**
 * A goal run's state between iterations, and how it carries out each step
 * the decision core (`nextGoalStep`) gives: finish, wait for an answer, or
 * run the next iteration and say how it ended.
 */
export class GoalRun {
  private iterations = 0;
  /** How the last iteration ended, for the next decision. */
  private last: GoalIterationEnd | undefined;
  /** What the run's closing event carries beyond its reason: the final summary, the question. */
  private closing: { finalSummary?: string; humanNeeded?: HumanNeeded } = {};
  private readonly agents: AgentRotation;
  private readonly hooks: HookRunner;

  constructor(private readonly ctx: GoalContext) {
    this.agents = runAgentRotation(ctx);
    this.hooks = createHookRunner({
      hooks: ctx.spec.hooks,
      cwd: ctx.cwd,
      runDir: ctx.runDir,
      agent: ctx.agent,
      emit: ctx.emit,
      onRecord: (record) => {
        ctx.store.update((p) => upsertHookTask(p, record)).catch(() => undefined);
      },
      env: { ...process.env },
      timeoutMs: ctx.limits.timeoutMs,
      idleTimeoutMs: ctx.limits.idleTimeoutMs,
      ...(ctx.wrap ? { wrap: ctx.wrap } : {}),
      now: ctx.now,
    });
  }

  /** Says the run started, with the goal and how far its steps are. */
  announce(resumed: boolean): void {
    const { ctx } = this;
    const start = ctx.store.get();
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
  }

  decide(): NextStep<GoalStopReason> {
    const { ctx } = this;
    const progress = ctx.store.get();
    return nextGoalStep({
      interrupted: ctx.stopSignal.aborted || ctx.killSignal.aborted,
      openQuestions: ctx.desk.open().length,
      waitForAnswers: ctx.waitForAnswers ?? false,
      iterations: this.iterations,
      limits: ctx.limits,
      spend: { costUsd: progress.stats.costUsd, iterations: progress.iterations.length },
      next: selectionFor(progress),
      ...(this.last ? { last: this.last } : {}),
    });
  }

  async finish(step: Stop<GoalStopReason>): Promise<GoalOutcome> {
    const { ctx } = this;
    const reason = step.reason;
    const { exitCode, message } = step;
    const questions = openQuestionNotes(ctx.spec.name, ctx.desk.open());
    await this.hooks.drain(ctx.limits.hookDrainMs, ctx.killSignal);
    await ctx.store.update((p) => markStopped(p, { reason, exitCode, now: ctx.now() }));
    await ctx.store.flush();
    const ending = {
      exitCode,
      reason,
      message,
      iterations: this.iterations,
      ...this.closing,
      questions,
      progressFile: ctx.files.progress,
    };
    ctx.emit(goalFinished(ctx.store.get(), ending));
    return { exitCode, reason };
  }

  /** `--wait`: the run sits until a person answers what it asked (or Ctrl-C), then goes on with the answer. */
  async waitForAnswer(): Promise<void> {
    const { ctx } = this;
    ctx.emit({ type: 'waiting', reason: 'question', message: waitingMessage(ctx.desk.open()) });
    await ctx.desk.nextAnswer(ctx.stopSignal, ctx.killSignal);
    this.last = undefined;
    this.closing = {};
  }

  /** One iteration in the mode the progress asks for; how it ended goes into the next decision. */
  async iterate(): Promise<Stop<GoalStopReason> | null> {
    const { ctx } = this;
    this.closing = {};
    const selection = selectionFor(ctx.store.get());
    // What background hooks wrote lands now, before the iteration records its HEAD.
    await this.hooks.betweenIterations();
    const agent = this.agents.current();
    const run = await runGoalIteration(ctx, selection, agent);
    const { outcome } = run;
    if (outcome.kind === 'aborted' || outcome.kind === 'rate-limited' || outcome.kind === 'outside') {
      // None counts: the iteration is rolled back as if it never ran.
      await rollBack(ctx, run);
      await ctx.store.update(undoIteration);
      this.last = outcome.kind === 'aborted' ? { kind: 'aborted' } : undefined;
      return outcome.kind === 'aborted' ? null : this.givenBack(run, agent);
    }
    this.agents.succeeded();
    this.iterations++;
    const info: IterationInfo = {
      iteration: run.iteration,
      mode: selection.mode,
      ...(selection.mode === 'executing' ? { stepId: selection.step.id } : {}),
      now: ctx.now(),
      usage: run.usage,
    };
    if (outcome.kind === 'failed') {
      const consecutive = await recordFailedIteration(ctx, run, info, outcome);
      await runHooks(this.hooks, ctx, run, info);
      this.last = { kind: 'failed', consecutive, reason: outcome.reason };
      return null;
    }
    const decision = await recordResult(ctx, run, info, outcome);
    await runHooks(this.hooks, ctx, run, info);
    this.last = { kind: 'accepted' };
    if (decision.kind === 'complete') {
      this.last = { kind: 'complete', iteration: run.iteration };
      this.closing = { finalSummary: decision.summary };
    }
    if (decision.kind === 'needs-human') {
      const { reason, details } = decision.humanNeeded;
      const question = details.trim() === '' ? reason : `${reason}\n${details}`;
      await ctx.desk.ask({ id: goalQuestionId(run.iteration), question, iteration: run.iteration });
      this.last = { kind: 'needs-human', iteration: run.iteration };
      this.closing = { humanNeeded: decision.humanNeeded };
    }
    return null;
  }

  /** A limit or the world outside ended the iteration: waited out, or the run stops. */
  private async givenBack(run: IterationRun, agent: AgentSetup): Promise<Stop<GoalStopReason> | null> {
    const { ctx } = this;
    const { outcome } = run;
    const outside = { emit: ctx.emit, agents: this.agents, signals: [ctx.stopSignal, ctx.killSignal] };
    const at = { iteration: run.iteration };
    if (outcome.kind === 'outside') {
      const answer = await respondToOutside(outside, outcome.failure, agent, at);
      if (answer.kind !== 'stop') return null;
      return { kind: 'stop', reason: answer.reason, exitCode: answer.exitCode, message: answer.message };
    }
    if (outcome.kind !== 'rate-limited') return null;
    const limit = { message: outcome.message, ...(outcome.resetsAt ? { resetsAt: outcome.resetsAt } : {}) };
    await respondToLimit(outside, limit, agent, at);
    return null;
  }
}
