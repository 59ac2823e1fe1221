import { storyBranchName } from '../core/story-ref.js';
import { type StorySetback, setbackFor } from '../core/story-setback.js';
import type { StoryVerdict } from '../core/story-verdict.js';
import type { Story } from '../core/types.js';
import type { AttemptFailure } from '../core/verdict.js';
import { refSha, verdictAt } from '../git/story-branches.js';
import { removeStoryCheckout } from '../git/story-worktree.js';
import type { ParallelRun } from '../parallel/parallel-run.js';
import { storyCheckoutOf } from '../parallel/work-story.js';
import { runWorkerLane } from '../parallel/worker-lane.js';
import { type AnswerDesk, openAnswerDesk } from '../run/answer-desk.js';
import { respondToOutside, runAgentRotation } from '../run/outside-response.js';
import { createRunHooks } from '../run/run-bounds.js';
import { iterationLogPath } from '../state/layout.js';
import type { RunState } from '../state/run-state.js';
import { storyRun } from '../state/run-state-update.js';
import type { Role } from './open-role.js';
import { sharedStories } from './plan-role.js';
import {
  fetchShared,
  pushSetback,
  pushWithLease,
  SharedRemoteError,
  sharedStoryBranches,
} from './shared-remote.js';

export type WorkerOutcome =
  /** Verified now and pushed: the story branch on the remote ends in the verdict. */
  | { kind: 'verified'; branch: string; verdict: StoryVerdict }
  /** Nothing to do: the remote already has a verdict for it (another job's). */
  | { kind: 'already-verified'; branch: string }
  | { kind: 'already-landed' }
  /** A story it depends on has not landed yet, or it is parked on the remote: nothing was run. */
  | { kind: 'not-ready'; reason: string }
  /** Out of retries: a parking setback was pushed. */
  | { kind: 'parked'; branch: string; attempts: number; reason: string }
  /** Given back (rate limit, interrupt): nothing pushed, the story is planned again. */
  | { kind: 'rate-limited' | 'aborted' }
  /** The agent asked a person (`reason` is the question): nothing pushed, the job's log holds it. */
  | { kind: 'asked'; reason: string }
  /** The agent cannot be used here, or its API stayed out past --outage-wait: nothing pushed or counted. */
  | { kind: 'agent-unusable' | 'outage'; reason: string };

/**
 * `ralph run --story ID --worker`: the work role as a job of its own. The
 * story's attempts run in this clone on `ralph-stories/<prd>/<story>` from
 * the remote PRD branch's tip, verified as usual; a verified branch is
 * pushed (its tip is the verdict), a story out of retries gets a setback
 * pushed instead. The push is leased on what the branch was on the remote,
 * so a second job at the same story cannot overwrite the first's verdict.
 * Nothing is written to the task file, locally or on the remote.
 */
export async function workerRole(role: Role, storyId: string): Promise<WorkerOutcome> {
  const { ctx } = role;
  const story = role.prd.stories.find((s) => s.id === storyId);
  if (!story) return { kind: 'not-ready', reason: `${storyId} is not in the task file on ${role.prdBranch}` };
  if (story.status === 'done') return { kind: 'already-landed' };
  const branch = storyBranchName(ctx.name, story.id);
  const shared = await sharedStory(role, story.id);
  if (shared?.verified) return { kind: 'already-verified', branch };
  if (shared?.parked) return { kind: 'not-ready', reason: `${story.id} is parked on the remote` };
  const waitingFor = story.dependsOn.filter(
    (d) => role.prd.stories.find((s) => s.id === d)?.status !== 'done',
  );
  if (waitingFor.length > 0) {
    return { kind: 'not-ready', reason: `${story.id} waits for ${waitingFor.join(', ')} to land` };
  }
  const expected = shared?.branch.tip ?? null;
  // A verdict a killed job made here but never pushed is pushed now, not earned again.
  if (role.waiting.some((w) => w.storyId === story.id)) return publish(role, story, branch, expected);

  // A worker's iterations are its story's attempts.
  ctx.limits = { ...ctx.limits, maxIterations: ctx.limits.maxIterations ?? ctx.limits.maxRetries };
  const setback = shared?.branch.setback;
  if (setback) await role.store.update((s) => carryOver(s, setback));
  const hooks = createRunHooks(ctx);
  const desk = await openAnswerDesk({ runDir: ctx.files.dir, emit: ctx.emit, now: ctx.now });
  const run = laneRun(role, desk, (iteration) =>
    hooks.afterIteration({
      iteration,
      runId: ctx.name,
      transcript: iterationLogPath(ctx.files.dir, Math.max(1, iteration)),
      storyId: story.id,
      prd: ctx.source.path,
    }),
  );
  const agents = runAgentRotation(ctx);
  const outside = { emit: ctx.emit, agents, signals: [ctx.stopSignal, ctx.killSignal] };
  try {
    for (;;) {
      const agent = agents.current();
      const result = await runWorkerLane(run, 1, story, agent);
      if (result.kind === 'verified') return await publish(role, story, branch, expected);
      if (result.kind === 'asked') return { kind: 'asked', reason: result.question };
      if (result.kind === 'outside') {
        // A job waits out an outage as a run does: the story is not given back for it.
        const at = { iteration: result.iteration, storyId: story.id };
        const answer = await respondToOutside(outside, result.failure, agent, at);
        if (answer.kind === 'stop') {
          return {
            kind: answer.reason === 'agent-unusable' ? 'agent-unusable' : 'outage',
            reason: answer.message,
          };
        }
        if (ctx.stopSignal.aborted || ctx.killSignal.aborted) return { kind: 'aborted' };
        continue;
      }
      agents.succeeded();
      if (result.kind !== 'failed') return { kind: result.kind };
      const record = storyRun(role.store.current, story.id);
      if (record.parked) return await park(role, story, expected, record.attempts, result.failure);
    }
  } finally {
    desk.close();
    await hooks.drain(60_000, ctx.killSignal);
  }
}

const sharedStory = async (role: Role, storyId: string) =>
  sharedStories(role.prd, role.ctx.name, await sharedStoryBranches(role.root, role.ctx.name)).get(storyId);

/** The parallel run's lane interface for one worker in this clone: nothing else runs beside it. */
function laneRun(
  role: Role,
  desk: AnswerDesk,
  afterIteration: (iteration: number) => Promise<void>,
): ParallelRun {
  const { ctx } = role;
  return {
    ctx,
    desk,
    store: role.store,
    root: role.root,
    prdBranch: role.prdBranch,
    prd: role.prd,
    busy: new Set(),
    queue: [],
    reserved: null,
    agent: () => ctx.agent,
    laneEmit: (worker, storyId) => (event) =>
      ctx.emit({ ...event, worker, storyId: event.storyId ?? storyId }),
    afterIteration: (iteration) => afterIteration(iteration),
    inCheckout: (work) => work(),
    meanwhile: (work) => void work(),
  };
}

/**
 * The remote's count of attempts and last failure, so retries and parking
 * work across jobs; for a requeue, why the story's verified work was
 * dropped (its redo's prompt says so) and how often, with nothing counted.
 */
function carryOver(state: RunState, setback: StorySetback): RunState {
  const { lastFailure: _failure, lastRequeue: _requeue, ...previous } = storyRun(state, setback.storyId);
  const last = { ...setback.failure, at: setback.at };
  if (setback.requeued) {
    if ((previous.requeues ?? 0) >= (setback.requeues ?? 0) && previous.attempts >= setback.attempts)
      return state;
    const story = {
      ...previous,
      attempts: setback.attempts,
      requeues: setback.requeues ?? 1,
      lastRequeue: last,
    };
    return { ...state, stories: { ...state.stories, [setback.storyId]: story } };
  }
  if (previous.attempts >= setback.attempts) return state;
  const story = { ...previous, attempts: setback.attempts, lastFailure: last };
  return { ...state, stories: { ...state.stories, [setback.storyId]: story } };
}

/** Pushes the verified story branch; a lost race with another job's verdict for it is that job's win. */
async function publish(
  role: Role,
  story: Story,
  branch: string,
  expected: string | null,
): Promise<WorkerOutcome> {
  const { root, ctx } = role;
  const tip = await refSha(root, `refs/heads/${branch}`);
  const verdict = tip === null ? null : await verdictAt(root, tip);
  if (tip === null || verdict === null) throw new SharedRemoteError(`${branch} has no verdict to push`);
  const pushed = await pushWithLease(root, branch, tip, expected);
  if (!pushed.ok) {
    await fetchShared(root, role.prdBranch, ctx.name);
    if ((await sharedStory(role, story.id))?.verified) return { kind: 'already-verified', branch };
    throw new SharedRemoteError(`could not push ${branch}: ${pushed.message}`);
  }
  await removeStoryCheckout(root, storyCheckoutOf(ctx, story.id));
  return { kind: 'verified', branch, verdict };
}

/** Out of retries here: the remote learns it, so the story is planned no more. */
async function park(
  role: Role,
  story: Story,
  expected: string | null,
  attempts: number,
  failure: AttemptFailure,
): Promise<WorkerOutcome> {
  const { root, ctx } = role;
  const branch = storyBranchName(ctx.name, story.id);
  const parent = await refSha(root, `refs/heads/${role.prdBranch}`);
  if (parent === null) throw new SharedRemoteError(`the PRD branch ${role.prdBranch} does not exist`);
  const pushed = await pushSetback(root, branch, {
    parent,
    expected,
    setback: setbackFor({ prd: ctx.name, storyId: story.id, attempts, parked: true, at: ctx.now() }, failure),
  });
  if (!pushed.ok) throw new SharedRemoteError(`could not push ${branch}: ${pushed.message}`);
  return { kind: 'parked', branch, attempts, reason: failure.reason };
}
