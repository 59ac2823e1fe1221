import type { AgentSetup } from '../agents/adapter.js';
import type { ExitCode } from '../core/errors.js';
import { storiesLeft } from '../core/forecast.js';
import { afterStoryAttempt, type NextStep, nextStoryStep, type Stop } from '../core/next-step.js';
import { answeredLearning, openQuestionNotes } from '../core/questions.js';
import type { Prd, Story } from '../core/types.js';
import type { AttemptFailure } from '../core/verdict.js';
import type { StopReason } from '../events/run-event.js';
import type { AgentRotation } from '../run/agent-rotation.js';
import type { AnswerDesk } from '../run/answer-desk.js';
import { waitForAnswer } from '../run/answer-wait.js';
import type { HookRunner } from '../run/hooks.js';
import { respondToLimit, respondToOutside, runAgentRotation } from '../run/outside-response.js';
import { readTaskFile } from '../run/read-task-file.js';
import { recordPass } from '../run/record-pass.js';
import {
  announceFinish,
  announceRun,
  createRunHooks,
  decisionLimits,
  iterationLimit,
} from '../run/run-bounds.js';
import type { LoopOutcome, RunContext } from '../run/run-context.js';
import { saveState } from '../run/state-io.js';
import { rollBack } from '../run/story-rollback.js';
import { undoAttempt } from '../run/undo-attempt.js';
import { iterationLogPath } from '../state/layout.js';
import { runForecast } from '../state/run-forecast.js';
import type { RunState } from '../state/run-state.js';
import { addUsage, markFailed, markParked, markStopped, storyRun } from '../state/run-state-update.js';
import { type AttemptResult, runStoryAttempt } from './story-attempt-run.js';

/**
 * The sequential runner's state between steps, and how it carries out each
 * step the decision core gives: finish, wait for an answer, park, attempt.
 */
export class SequentialRun {
  private iterations = 0;
  private readonly passedThisRun = new Set<string>();
  private readonly scope: { onlyStoryId: string | undefined; resumeFromId: string | undefined };
  private readonly agents: AgentRotation;
  private readonly hooks: HookRunner;

  private constructor(
    private readonly ctx: RunContext,
    private state: RunState,
    private prd: Prd,
    private readonly desk: AnswerDesk,
    private readonly maxIterations: () => number,
  ) {
    this.scope = { onlyStoryId: ctx.onlyStoryId, resumeFromId: ctx.resumeFromId };
    this.agents = runAgentRotation(ctx);
    this.hooks = createRunHooks(ctx);
  }

  static async open(
    ctx: RunContext,
    state: RunState,
    resumed: boolean,
    desk: AnswerDesk,
  ): Promise<SequentialRun> {
    const prd = await readTaskFile(ctx);
    const limits = announceRun(ctx, prd, resumed, state.totals.costUsd, state.iteration);
    return new SequentialRun(ctx, state, prd, desk, iterationLimit(ctx, limits));
  }

  private get parked(): Set<string> {
    return new Set(Object.entries(this.state.stories).flatMap(([id, s]) => (s.parked ? [id] : [])));
  }

  /** The decision core's answer for the run as it is now: one worker, nothing running between steps. */
  async decide(): Promise<NextStep<StopReason>> {
    const { ctx, state } = this;
    const interrupted = ctx.stopSignal.aborted || ctx.killSignal.aborted;
    if (!interrupted) {
      this.prd = await readTaskFile(ctx);
      await this.desk.poll();
    }
    return nextStoryStep({
      stories: this.prd.stories,
      scope: this.scope,
      parked: this.parked,
      asked: this.desk.waiting(),
      busy: new Set(),
      passedThisRun: this.passedThisRun,
      workers: 1,
      running: 0,
      landing: 0,
      toLand: 0,
      interrupt: interrupted ? 'graceful' : 'none',
      holding: false,
      waitForAnswers: ctx.waitForAnswers ?? false,
      limits: decisionLimits(ctx, this.maxIterations()),
      spend: {
        attempts: this.iterations,
        costUsd: state.totals.costUsd,
        finishedIterations: state.totals.iterations,
      },
      storySpend: (id) => storyRun(state, id),
    });
  }

  async finish(reason: StopReason, exitCode: ExitCode, message: string): Promise<LoopOutcome> {
    const { ctx } = this;
    await this.hooks.drain(60_000, ctx.killSignal);
    // A stop can come right after a pass: count what the task file says now, not at the last selection.
    this.prd = await readTaskFile(ctx).catch(() => this.prd);
    this.state = markStopped(this.state, { reason, exitCode, now: ctx.now() });
    await saveState(ctx, this.state);
    const questions = openQuestionNotes(ctx.name, this.desk.open());
    announceFinish(ctx, this.prd, this.state, {
      reason,
      exitCode,
      message,
      iterations: this.iterations,
      questions,
    });
    return { exitCode, reason };
  }

  /** `--wait`: the run sits until a person answers (or Ctrl-C), then picks again. */
  waitForAnswer(): Promise<void> {
    return waitForAnswer(this.ctx, this.desk, this.prd.stories);
  }

  /** Spent already (an earlier run, attempts not counted: an outage, a question): parked without another. */
  async park(storyId: string, attempts: number, reason: string): Promise<void> {
    this.state = markParked(this.state, storyId, this.ctx.now());
    await saveState(this.ctx, this.state);
    this.ctx.emit({ type: 'story-parked', storyId, attempts, reason });
  }

  /** One attempt at the story and what its end means; a stop when that end stops the run. */
  async attempt(storyId: string): Promise<Stop<StopReason> | null> {
    const { ctx } = this;
    const story = this.prd.stories.find((s) => s.id === storyId);
    if (!story) return null;
    // What background hooks wrote lands now, before the attempt records its HEAD.
    await this.hooks.betweenIterations();
    const agent = this.agents.current();
    // Iteration numbers go on over every session; the limit counts this session's counted iterations.
    const lastIteration = this.state.iteration + this.maxIterations() - this.iterations;
    const answered = this.desk.answered(story.id);
    const result = await runStoryAttempt(ctx, this.state, story, agent, answered, lastIteration);
    this.state = result.state;
    const { verdict } = result;
    if (verdict.kind === 'rate-limited' || verdict.kind === 'outside') return this.givenBack(result, agent);
    this.agents.succeeded();
    this.iterations++;
    if (verdict.kind === 'pass') await this.passed(result);
    else if (verdict.kind === 'question' || verdict.kind === 'aborted') {
      await rollBack(ctx, story.id, this.state.current?.attempt ?? 1, result.headBefore);
      // Asking is not failing, nor is being stopped by the user: the attempt does not count.
      this.state = undoAttempt(this.state, story.id, ctx.now());
      await saveState(ctx, this.state);
      if (verdict.kind !== 'question')
        return afterStoryAttempt({ kind: 'aborted' }, ctx.limits) as Stop<StopReason>;
      const { question } = verdict;
      await this.desk.ask({ id: story.id, storyId: story.id, question, iteration: this.state.iteration });
    } else await this.failed(story, result, verdict);
    await this.afterIteration(story.id);
    return null;
  }

  private afterIteration(storyId: string): Promise<void> {
    return this.hooks.afterIteration({
      iteration: this.state.iteration,
      runId: this.ctx.name,
      transcript: iterationLogPath(this.ctx.files.dir, this.state.iteration),
      storyId,
      prd: this.ctx.source.path,
    });
  }

  /** Not the story's doing (a limit, the world outside): rolled back, not counted, waited out or stopped. */
  private async givenBack(result: AttemptResult, agent: AgentSetup): Promise<Stop<StopReason> | null> {
    const { ctx } = this;
    const { story, verdict } = result;
    await rollBack(ctx, story.id, result.state.current?.attempt ?? 1, result.headBefore);
    this.state = undoAttempt(this.state, story.id, ctx.now());
    await saveState(ctx, this.state);
    const at = { iteration: this.state.iteration, storyId: story.id };
    const outside = { emit: ctx.emit, agents: this.agents, signals: [ctx.stopSignal, ctx.killSignal] };
    if (verdict.kind === 'outside') {
      const answer = await respondToOutside(outside, verdict.failure, agent, at);
      return answer.kind === 'stop'
        ? { kind: 'stop', reason: answer.reason, exitCode: answer.exitCode, message: answer.message }
        : null;
    }
    const limit = {
      message: result.rateLimit?.message ?? 'rate limited',
      ...(result.rateLimit?.resetsAt ? { resetsAt: result.rateLimit.resetsAt } : {}),
      ...(verdict.kind === 'rate-limited' && verdict.quota ? { quota: true } : {}),
    };
    await respondToLimit(outside, limit, agent, at);
    return null;
  }

  /** A story's time is the time its counted attempts ran, not time waited or interrupted. */
  private timed(state: RunState, result: AttemptResult): RunState {
    return addUsage(state, result.story.id, { durationMs: result.durationMs }, this.ctx.now());
  }

  private async passed(result: AttemptResult): Promise<void> {
    const { ctx } = this;
    const { story } = result;
    this.state = await recordPass(ctx, this.timed(this.state, result), {
      story,
      headBefore: result.headBefore,
      commits: result.commits,
      summary: result.summary,
      // What a person answered the story is worth knowing for the stories after it.
      learnings: [...result.signals.learn, ...this.desk.answered(story.id).map(answeredLearning)],
    });
    this.passedThisRun.add(story.id);
    const forecast = runForecast(
      this.state,
      storiesLeft(this.prd.stories, this.scope, this.parked, story.id),
    );
    const record = this.state.stories[story.id];
    ctx.emit({
      type: 'story-passed',
      iteration: this.state.iteration,
      storyId: story.id,
      title: story.title,
      attempt: record?.attempts ?? 1,
      commits: result.commits,
      costUsd: record?.costUsd ?? result.costUsd,
      durationMs: record?.durationMs ?? result.durationMs,
      ...(forecast ? { forecast } : {}),
    });
  }

  private async failed(story: Story, result: AttemptResult, verdict: AttemptFailure): Promise<void> {
    const { ctx } = this;
    const attempt = this.state.current?.attempt ?? 1;
    await rollBack(ctx, story.id, attempt, result.headBefore);
    const end = {
      kind: 'failed',
      storyId: story.id,
      attempt,
      reason: verdict.reason,
      costUsd: storyRun(this.state, story.id).costUsd,
    } as const;
    const parking = afterStoryAttempt(end, ctx.limits);
    const park = parking?.kind === 'park';
    this.state = markFailed(this.timed(this.state, result), story.id, {
      reason: verdict.reason,
      kind: verdict.kind,
      now: ctx.now(),
      park,
      // The retry prompt shows the failing check's own words, not just its exit code.
      ...(verdict.gateOutputTail ? { gateOutputTail: verdict.gateOutputTail } : {}),
    });
    await saveState(ctx, this.state);
    ctx.emit({
      type: 'attempt-failed',
      iteration: this.state.iteration,
      storyId: story.id,
      attempt,
      maxAttempts: ctx.limits.maxRetries,
      kind: verdict.kind,
      reason: verdict.reason,
      willRetry: !park,
      durationMs: result.durationMs,
    });
    if (parking?.kind === 'park')
      ctx.emit({ type: 'story-parked', storyId: story.id, attempts: attempt, reason: parking.reason });
  }
}
