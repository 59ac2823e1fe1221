import type { AgentSetup } from '../agents/adapter.js';
import { runAttempt } from '../attempt/run-attempt.js';
import type { Question } from '../core/questions.js';
import type { Signals } from '../core/signals.js';
import type { Story } from '../core/types.js';
import type { Verdict } from '../core/verdict.js';
import type { CommitInfo } from '../git/index.js';
import type { RunContext } from '../run/run-context.js';
import { saveState } from '../run/state-io.js';
import { storyAttemptRequest } from '../run/story-attempt.js';
import type { RunState } from '../state/run-state.js';
import { addUsage, startAttempt, storyRun } from '../state/run-state-update.js';

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
 * One story attempt of the sequential runner, in the PRD's checkout, its
 * start and spend recorded in the run state. Rolling back or recording the
 * pass is the caller's.
 */
export async function runStoryAttempt(
  ctx: RunContext,
  state: RunState,
  story: Story,
  agent: AgentSetup = ctx.agent,
  answered: readonly Question[] = [],
  lastIteration?: number,
): Promise<AttemptResult> {
  const previous = storyRun(state, story.id);
  let next = state;
  let costUsd = 0;
  const outcome = await runAttempt(
    await storyAttemptRequest({
      ctx,
      story,
      // As `startAttempt` numbers them.
      attempt: previous.attempts + 1,
      iteration: state.iteration + 1,
      ...(previous.lastFailure ? { lastFailure: previous.lastFailure } : {}),
      answered,
      agent,
      ...(lastIteration !== undefined ? { lastIteration } : {}),
      emit: ctx.emit,
      record: {
        begin: async (headBefore, agentToken) => {
          next = startAttempt(state, { storyId: story.id, headBefore, now: ctx.now(), agentToken });
          await saveState(ctx, next);
        },
        spawned: async (pid) => {
          if (!next.current) return;
          next = { ...next, current: { ...next.current, agentPid: pid, phase: 'agent' } };
          await saveState(ctx, next);
        },
        agentDone: async (usage) => {
          costUsd = usage.costUsd;
          next = addUsage(next, story.id, usage, ctx.now());
        },
      },
    }),
  );
  const { facts } = outcome;
  return {
    state: next,
    verdict: outcome.verdict,
    story,
    headBefore: facts.headBefore,
    commits: [...facts.commits],
    signals: facts.said,
    summary: outcome.summary,
    durationMs: outcome.durationMs,
    costUsd,
    ...(facts.agent.rateLimit ? { rateLimit: facts.agent.rateLimit } : {}),
  };
}
