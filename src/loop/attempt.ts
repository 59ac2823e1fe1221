import type { AttemptEvent } from '../attempt/attempt-request.js';
import { runAttempt } from '../attempt/run-attempt.js';
import type { Signals } from '../core/signals.js';
import { storyShape } from '../core/story-shape.js';
import type { Story } from '../core/types.js';
import type { Verdict } from '../core/verdict.js';
import type { CommitInfo } from '../git/index.js';
import { iterationLogPath } from '../state/layout.js';
import type { RunState } from '../state/run-state.js';
import { addUsage, startAttempt, storyRun } from '../state/run-state-update.js';
import type { CollectedUsage } from './agent-collector.js';
import type { AgentSetup, RunContext } from './context.js';
import type { LoopEvent, LoopEventSink } from './events.js';
import { saveState } from './state-io.js';
import { storyPromptFor } from './story-prompt.js';
import { isToolFile, toolPaths } from './tool-files.js';

export interface AttemptResult {
  state: RunState;
  verdict: Verdict;
  story: Story;
  headBefore: string;
  commits: CommitInfo[];
  signals: Signals;
  /** The agent's last words without signal tags, for the progress file. */
  summary: string;
  durationMs: number;
  costUsd: number;
  rateLimit?: { message: string; resetsAt?: string };
}

/**
 * One story attempt on the attempt kernel: the story's prompt, its state
 * records and events around the kernel's steps, judged by the story shape.
 * Rolling back or recording the pass is the caller's.
 */
export async function runStoryAttempt(
  ctx: RunContext,
  state: RunState,
  story: Story,
  agent: AgentSetup = ctx.agent,
): Promise<AttemptResult> {
  const previous = storyRun(state, story.id);
  const attempt = previous.attempts + 1;
  const prompt = await storyPromptFor(
    { ...ctx, maxRetries: ctx.limits.maxRetries },
    story,
    attempt,
    previous.lastFailure,
  );
  let next = state;
  let costUsd = 0;
  const iteration = () => next.iteration;
  const outcome = await runAttempt({
    cwd: ctx.cwd,
    prompt,
    agent,
    timeoutMs: ctx.limits.timeoutMs,
    idleTimeoutMs: ctx.limits.idleTimeoutMs,
    gates: ctx.config.checks,
    killSignal: ctx.killSignal,
    rawLogPath: iterationLogPath(ctx.files.dir, state.iteration + 1),
    toolPaths: toolPaths(ctx),
    isToolPath: (path) => isToolFile(ctx, path),
    shape: storyShape(story.id),
    begin: async (headBefore, agentToken) => {
      next = startAttempt(state, { storyId: story.id, headBefore, now: ctx.now(), agentToken });
      await saveState(ctx, next);
      ctx.emit({
        type: 'iteration-started',
        iteration: iteration(),
        maxIterations: ctx.limits.maxIterations ?? 0,
        storyId: story.id,
        title: story.title,
        attempt: next.current?.attempt ?? attempt,
        maxAttempts: ctx.limits.maxRetries,
        headBefore,
      });
    },
    spawned: async (pid) => {
      if (!next.current) return;
      next = { ...next, current: { ...next.current, agentPid: pid, phase: 'agent' } };
      await saveState(ctx, next);
    },
    agentDone: async ({ agent: run, usage, said }) => {
      reportAgentDone(ctx.emit, { iteration: iteration(), storyId: story.id }, said, usage);
      costUsd = usage.costUsd;
      next = addUsage(next, story.id, { ...usage, durationMs: run.durationMs }, ctx.now());
    },
    emit: (event) => ctx.emit(storyAttemptEvent(event, { iteration: iteration(), storyId: story.id })),
  });
  const { facts } = outcome;
  return {
    state: next,
    verdict: outcome.verdict,
    story,
    headBefore: facts.headBefore,
    commits: [...facts.commits],
    signals: facts.said,
    summary: outcome.summary,
    durationMs: facts.agent.durationMs,
    costUsd,
    ...(facts.agent.rateLimit ? { rateLimit: facts.agent.rateLimit } : {}),
  };
}

/** A kernel event as the story loops report it, tagged with the iteration and story. */
export function storyAttemptEvent(
  event: AttemptEvent,
  at: { iteration: number; storyId: string },
): LoopEvent {
  switch (event.type) {
    case 'agent-event':
      return { ...event, ...at };
    case 'tool-file-restored':
      return { type: 'task-file-restored', storyId: at.storyId, path: event.path };
    default:
      return { ...event, iteration: at.iteration };
  }
}

/** The agent's signals and spend, as events, once it has stopped. */
export function reportAgentDone(
  emit: LoopEventSink,
  at: { iteration: number; storyId: string },
  said: Signals,
  usage: CollectedUsage,
): void {
  const signal = (signal: 'done' | 'fail' | 'learn', detail: string) =>
    emit({ type: 'signal', ...at, signal, detail });
  for (const id of said.done) signal('done', id);
  for (const f of said.fail) signal('fail', `${f.id}: ${f.reason}`);
  for (const l of said.learn) signal('learn', l);
  emit({ type: 'usage', ...at, ...usage });
}
