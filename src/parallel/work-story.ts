import path from 'node:path';
import type { AgentSetup } from '../agents/adapter.js';
import type { CollectedUsage } from '../agents/agent-collector.js';
import { runAttempt } from '../attempt/run-attempt.js';
import type { OutsideFailure } from '../core/outside-failure.js';
import { answeredLearning, type Question } from '../core/questions.js';
import { storyBranchName, storyRefComponent } from '../core/story-ref.js';
import type { StoryVerdict } from '../core/story-verdict.js';
import type { Story } from '../core/types.js';
import type { AttemptFailure } from '../core/verdict.js';
import type { RunEventSink } from '../events/run-event.js';
import { refSha, writeVerdict } from '../git/story-branches.js';
import { prepareStoryCheckout } from '../git/story-worktree.js';
import type { RunContext } from '../run/run-context.js';
import { storyAttemptRequest } from '../run/story-attempt.js';
import { rollBack } from '../run/story-rollback.js';
import { type SetupEnvironment, setupOnce } from '../run/worktree-setup.js';
import { sourceSeenFrom } from '../sources/load-task-source.js';
import { faultPoint } from '../state/fault-point.js';
import type { Failure } from '../state/run-state.js';

export interface StoryWorkRequest {
  /** The run: its cwd is the PRD checkout, `files.dir` the run folder. */
  ctx: RunContext;
  /** The repository's main checkout, where story worktrees are registered. */
  root: string;
  prdBranch: string;
  story: Story;
  lastFailure?: Failure;
  /** Why its verified work was last dropped after a race, for the redo's prompt. */
  lastRequeue?: Failure;
  /** Times it was requeued so far: its verdict says so, and lands first. */
  requeues?: number;
  /** The story's questions a person has answered: in its prompt, and in its learnings once it lands. */
  answered?: readonly Question[];
  agent: AgentSetup;
  /** The last iteration number this session may reach (see `iteration-started`). */
  lastIteration?: number;
  /** Tagged with the worker and story by the caller. */
  emit: RunEventSink;
  /** What must survive a kill, awaited before the attempt goes on. */
  record: {
    started(start: { headBefore: string; branch: string; worktree: string }): Promise<{
      iteration: number;
      attempt: number;
    }>;
    /** The attempt's `RALPH_ATTEMPT` token, before the agent starts: a killed run finds its processes by it. */
    token(token: string): Promise<void>;
    spawned(pid: number): Promise<void>;
    agentDone(usage: CollectedUsage & { durationMs: number }): Promise<void>;
  };
}

export type StoryWorkResult = { iteration: number; attempt: number; branch: string; worktree: string } & (
  | { kind: 'verified'; verdict: StoryVerdict; commits: number }
  | { kind: 'failed'; failure: AttemptFailure }
  /** The agent asked a person: the story waits for the answer; the attempt does not count. */
  | { kind: 'asked'; question: string }
  | { kind: 'rate-limited'; rateLimit?: { message: string; resetsAt?: string }; quota?: boolean }
  /** The agent could not be used, or its API was out: given back, not counted. */
  | { kind: 'outside'; failure: OutsideFailure }
  | { kind: 'aborted' }
) & {
    /** How long the attempt ran, agent and gates. */
    durationMs: number;
  };

/** `.ralph/runs/<prd>/stories/<story>/`: outside every checkout's tracked files, and never inside the PRD's worktree. */
export const storyCheckoutDir = (runDir: string, storyId: string): string =>
  path.join(runDir, 'stories', storyRefComponent(storyId));

/** A story's worktree folder and branch in this run. */
export const storyCheckoutOf = (
  ctx: Pick<RunContext, 'files' | 'name'>,
  storyId: string,
): { dir: string; branch: string } => ({
  dir: storyCheckoutDir(ctx.files.dir, storyId),
  branch: storyBranchName(ctx.name, storyId),
});

/**
 * The worker role: one attempt at one story, in the story's own worktree on
 * `ralph-stories/<prd>/<story>` made from the PRD branch's current tip, with
 * `worktree.setup` run there, verified as any attempt (DONE for this id, a
 * new commit, the gates, a clean tree). A pass ends with the verdict stored
 * on the story branch (see `StoryVerdict`); anything else is rolled back.
 * It never writes the task file or the progress file: landing the work is
 * the merge queue's.
 */
export async function workStory(request: StoryWorkRequest): Promise<StoryWorkResult> {
  const { ctx, story, emit } = request;
  const from = await refSha(ctx.cwd, `refs/heads/${request.prdBranch}`);
  if (from === null) throw new Error(`the PRD branch ${request.prdBranch} does not exist`);
  const { dir, branch } = storyCheckoutOf(ctx, story.id);
  const checkout = await prepareStoryCheckout(request.root, { dir, branch, from });
  faultPoint('story-checkout-made');
  emit(
    checkout.created
      ? { type: 'worktree-created', path: dir, branch, base: request.prdBranch, newBranch: true }
      : { type: 'worktree-reused', path: dir, branch },
  );
  // What setup made is this worktree's environment, named in the prompt (not the PRD checkout's).
  const { environment } = await setupOnce(dir, ctx.config.worktree.setup, emit);

  const { iteration, attempt } = await request.record.started({ headBefore: from, branch, worktree: dir });
  const inStory = storyContext(ctx, dir, emit, environment);
  const done = { iteration, attempt, branch, worktree: dir };
  let spent: CollectedUsage = { costUsd: 0, inputTokens: 0, outputTokens: 0 };
  const outcome = await runAttempt(
    await storyAttemptRequest({
      ctx: inStory,
      story,
      attempt,
      iteration,
      ...(request.lastFailure ? { lastFailure: request.lastFailure } : {}),
      ...(request.lastRequeue ? { lastRequeue: request.lastRequeue } : {}),
      ...(request.answered ? { answered: request.answered } : {}),
      agent: request.agent,
      ...(request.lastIteration !== undefined ? { lastIteration: request.lastIteration } : {}),
      emit,
      record: {
        begin: (_headBefore, token) => request.record.token(token),
        spawned: request.record.spawned,
        agentDone: async (usage) => {
          spent = usage;
          await request.record.agentDone(usage);
        },
      },
    }),
  );

  const { verdict, facts } = outcome;
  const timed = { ...done, durationMs: outcome.durationMs };
  const head = facts.commits.at(-1)?.sha;
  if (verdict.kind === 'pass' && head !== undefined) {
    const recorded: StoryVerdict = {
      version: 1,
      prd: ctx.name,
      storyId: story.id,
      attempt,
      base: from,
      head,
      costUsd: spent.costUsd,
      inputTokens: spent.inputTokens,
      outputTokens: spent.outputTokens,
      durationMs: outcome.durationMs,
      verifiedAt: ctx.now().toISOString(),
      summary: outcome.summary,
      learnings: [...facts.said.learn, ...(request.answered ?? []).map(answeredLearning)],
      ...(request.requeues ? { requeues: request.requeues } : {}),
    };
    await writeVerdict(request.root, branch, recorded);
    faultPoint('story-verified');
    return { ...timed, kind: 'verified', verdict: recorded, commits: facts.commits.length };
  }
  await rollBack(inStory, story.id, attempt, from);
  if (verdict.kind === 'rate-limited') {
    return {
      ...timed,
      kind: 'rate-limited',
      ...(facts.agent.rateLimit ? { rateLimit: facts.agent.rateLimit } : {}),
      ...(verdict.quota ? { quota: true } : {}),
    };
  }
  if (verdict.kind === 'outside') return { ...timed, kind: 'outside', failure: verdict.failure };
  if (verdict.kind === 'aborted') return { ...timed, kind: 'aborted' };
  if (verdict.kind === 'question') return { ...timed, kind: 'asked', question: verdict.question };
  if (verdict.kind === 'pass') {
    return { ...timed, kind: 'failed', failure: { kind: 'no-commit', reason: 'No new commit was found.' } };
  }
  return { ...timed, kind: 'failed', failure: verdict };
}

/** The run as seen from a story's checkout: the same task and progress files, at the same place in it. */
export function storyContext(
  ctx: RunContext,
  dir: string,
  emit: RunEventSink,
  environment: SetupEnvironment | null,
): RunContext {
  const inside = (file: string) => {
    const rel = path.relative(ctx.cwd, file);
    return rel.startsWith('..') || path.isAbsolute(rel) ? file : path.join(dir, rel);
  };
  // The PRD checkout's setup environment is not this worktree's.
  const { environment: _prdCheckout, ...run } = ctx;
  return {
    ...run,
    cwd: dir,
    source: sourceSeenFrom(ctx.source, inside),
    progressPath: inside(ctx.progressPath),
    emit,
    ...(environment ? { environment } : {}),
  };
}
