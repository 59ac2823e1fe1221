import { runAttempt } from '../attempt/run-attempt.js';
import type { Signals } from '../core/signals.js';
import { storyShape } from '../core/story-shape.js';
import type { Story } from '../core/types.js';
import type { Verdict } from '../core/verdict.js';
import type { CommitInfo } from '../git/index.js';
import { iterationLogPath } from '../state/layout.js';
import type { RunState } from '../state/run-state.js';
import { addUsage, startAttempt, storyRun } from '../state/run-state-update.js';
import type { AgentSetup, RunContext } from './context.js';
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
      for (const id of said.done) emitSignal('done', id);
      for (const f of said.fail) emitSignal('fail', `${f.id}: ${f.reason}`);
      for (const l of said.learn) emitSignal('learn', l);
      costUsd = usage.costUsd;
      next = addUsage(next, story.id, { ...usage, durationMs: run.durationMs }, ctx.now());
      ctx.emit({ type: 'usage', iteration: iteration(), storyId: story.id, ...usage });
    },
    emit: (event) => {
      switch (event.type) {
        case 'agent-event':
          return ctx.emit({ ...event, iteration: iteration(), storyId: story.id });
        case 'tool-file-restored':
          return ctx.emit({ type: 'task-file-restored', storyId: story.id, path: event.path });
        default:
          return ctx.emit({ ...event, iteration: iteration() });
      }
    },
  });
  function emitSignal(signal: 'done' | 'fail' | 'learn', detail: string) {
    ctx.emit({ type: 'signal', iteration: iteration(), storyId: story.id, signal, detail });
  }
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
