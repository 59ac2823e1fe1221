import { randomUUID } from 'node:crypto';
import { ATTEMPT_ENV } from '../agents/process-environ.js';
import { runChecks } from '../attempt/gates.js';
import { type IntegrationProblem, integrationFailure } from '../core/integration-failure.js';
import { passedStoryIds } from '../core/pass-commit.js';
import type { StoryVerdict } from '../core/story-verdict.js';
import type { Story } from '../core/types.js';
import type { AttemptFailure } from '../core/verdict.js';
import type { EventOf, RunEventSink } from '../events/run-event.js';
import { type CommitInfo, commitsSince, git, headSha, statusPorcelain } from '../git/index.js';
import { attachHead, compareAndSwapBranch, detachHead, rebaseOnto, returnToBranch } from '../git/land.js';
import { heldRef } from '../git/refs-guard.js';
import { restorePathsFrom } from '../git/restore-paths.js';
import { refSha } from '../git/story-branches.js';
import { readTaskFile } from '../run/read-task-file.js';
import { writePassFiles } from '../run/record-pass.js';
import type { RunContext } from '../run/run-context.js';
import { isToolFile, toolPaths } from '../run/tool-files.js';
import { faultPoint } from '../state/fault-point.js';

export interface LandRequest {
  /** The run: its cwd is the PRD checkout, where stories are integrated. */
  ctx: RunContext;
  prdBranch: string;
  story: Story;
  verdict: StoryVerdict;
  /** The iteration of the attempt that produced the verdict, for the gate events. */
  iteration: number;
  /** Tagged with the merge lane and story by the caller. */
  emit: RunEventSink;
  /**
   * Records the landing as begun before the checkout is detached, so a killed
   * run can undo it; its gates carry `token` (`RALPH_ATTEMPT`), for a killed
   * run to find and stop them.
   */
  began(tipBefore: string, token: string): Promise<void>;
}

export type LandResult =
  | { kind: 'landed'; tip: string; commits: CommitInfo[] }
  /** The PRD branch already records the story as done (a landing completed before a crash). */
  | { kind: 'already-landed' }
  | {
      kind: 'rejected';
      failure: AttemptFailure;
      problem: IntegrationProblem;
      landedMeanwhile: string[];
      /** The PRD branch's tip it could not land on. */
      tip: string;
    }
  | { kind: 'aborted' };

/**
 * The merge-queue role, for one verified story: its commits are rebased
 * onto the PRD branch's tip in the PRD checkout (detached, so the branch
 * does not move with them), the gates run on the result, the tool records
 * the pass (task file, progress entry with the story's learnings), and only
 * then is the branch moved there, by compare-and-swap. Whatever fails, the
 * checkout goes back to the branch's tip: nothing half-merged is ever on
 * the PRD branch. If the tip moved meanwhile, the landing starts over on it.
 */
/**
 * The PRD branch's tip, where the merge queue last put it: only the queue moves
 * it, so a tip an agent moved it to meanwhile is put back, never built on.
 */
async function reclaimPrdBranch(cwd: string, prdBranch: string, undone: (what: string) => void) {
  const ref = `refs/heads/${prdBranch}`;
  const tip = await refSha(cwd, ref);
  const held = heldRef(ref);
  if (held === undefined || tip === null || tip === held) return tip;
  if (!(await compareAndSwapBranch(cwd, prdBranch, held, tip, 'ralph: put back'))) return refSha(cwd, ref);
  undone(`put back ${ref}, which an agent moved (only the merge queue lands on it)`);
  return held;
}

export async function landStory(request: LandRequest): Promise<LandResult> {
  const { ctx, story, verdict, emit, prdBranch } = request;
  const cwd = ctx.cwd;
  await refuseForeignChanges(ctx, prdBranch);
  for (;;) {
    const tipBefore = await reclaimPrdBranch(cwd, prdBranch, (what) =>
      emit({ type: 'attempt-undone', iteration: request.iteration, storyId: story.id, what }),
    );
    if (tipBefore === null) throw new Error(`the PRD branch ${prdBranch} does not exist`);
    if ((await headSha(cwd)) !== tipBefore) await returnToBranch(cwd, prdBranch);
    const prd = await readTaskFile(ctx);
    if (prd.stories.some((s) => s.id === story.id && s.status === 'done')) return { kind: 'already-landed' };

    const token = randomUUID();
    await request.began(tipBefore, token);
    await detachHead(cwd);
    faultPoint('landing-detached');
    const landedMeanwhile = passedStoryIds(
      (await git(['log', '--reverse', '--format=%s', `${verdict.base}..${tipBefore}`, '--'], { cwd }))
        .split('\n')
        .filter(Boolean),
    );
    const rejected = async (problem: IntegrationProblem): Promise<LandResult> => {
      await returnToBranch(cwd, prdBranch);
      return {
        kind: 'rejected',
        failure: integrationFailure(problem, landedMeanwhile),
        problem,
        landedMeanwhile,
        tip: tipBefore,
      };
    };

    const rebased = await rebaseOnto(
      cwd,
      { onto: tipBefore, upstream: verdict.base, head: verdict.head },
      (p) => isToolFile(ctx, p),
    );
    if (!rebased.ok) return rejected({ kind: 'conflict', files: rebased.files, diff: rebased.diff });
    const commits = await commitsSince(cwd, tipBefore);
    faultPoint('landing-rebased');
    // The agent's edits to the tool's files are undone, as in any attempt; the record below rewrites them.
    await restorePathsFrom(cwd, tipBefore, toolPaths(ctx));

    const gates = ctx.killSignal.aborted
      ? []
      : await runChecks(ctx.config.checks, cwd, ctx.limits.timeoutMs, {
          signal: ctx.killSignal,
          env: { ...process.env, [ATTEMPT_ENV]: token },
          // What the agents wrote is tested inside their sandbox here too: its gates run their code.
          ...(ctx.wrap ? { wrap: ctx.wrap } : {}),
          onStart: (command) => emit({ type: 'check-started', iteration: request.iteration, command }),
          onFinish: (result) => emit({ type: 'check-finished', iteration: request.iteration, ...result }),
        });
    if (ctx.killSignal.aborted) {
      await returnToBranch(cwd, prdBranch);
      return { kind: 'aborted' };
    }
    const failed = gates.find((g) => g.exitCode !== 0);
    if (failed) return rejected({ kind: 'gates', ...failed });

    await writePassFiles(ctx, {
      story,
      headBefore: tipBefore,
      commits,
      summary: verdict.summary,
      learnings: verdict.learnings,
    });
    faultPoint('landing-recorded');
    const tip = await headSha(cwd);
    if (tip === null) throw new Error('the PRD checkout lost its HEAD');
    if (!(await compareAndSwapBranch(cwd, prdBranch, tip, tipBefore, `ralph: land ${story.id}`))) {
      // Someone else moved the branch: nothing of ours is on it; land again on what is there now.
      await returnToBranch(cwd, prdBranch);
      continue;
    }
    faultPoint('landing-moved');
    await attachHead(cwd, prdBranch);
    return { kind: 'landed', tip, commits };
  }
}

/**
 * The event that says verified work did not land, and what happens to it
 * next: a race is resolved, the story's own failure retried.
 */
export function integrationFailed(
  storyId: string,
  rejected: Extract<LandResult, { kind: 'rejected' }>,
  next: 'resolve' | 'retry',
): EventOf<'integration-failed'> {
  return {
    type: 'integration-failed',
    storyId,
    kind: rejected.failure.kind === 'conflict' ? 'conflict' : 'check-failed',
    files: rejected.problem.kind === 'conflict' ? [...rejected.problem.files] : [],
    landedMeanwhile: rejected.landedMeanwhile,
    next,
  };
}

/**
 * The merge queue resets the PRD checkout, so it must not hold uncommitted
 * edits of tracked files (untracked files are cleaned away, as by any
 * rollback). Compared with where the queue last put the PRD branch: an agent
 * running meanwhile that moves the branch (put back after its attempt) makes
 * the checkout look changed against HEAD without a byte in it changing.
 */
async function refuseForeignChanges(ctx: RunContext, prdBranch: string): Promise<void> {
  let foreign = (await statusPorcelain(ctx.cwd)).filter((e) => e.code !== '??').map((e) => e.path);
  const held = heldRef(`refs/heads/${prdBranch}`);
  if (foreign.length > 0 && held !== undefined)
    foreign = (await git(['diff', '--name-only', held, '--'], { cwd: ctx.cwd })).split('\n').filter(Boolean);
  if (foreign.length > 0) {
    throw new Error(
      `the PRD checkout ${ctx.cwd} has uncommitted changes (${foreign
        .slice(0, 5)
        .join(', ')}); stories are landed there, so it must stay clean while a parallel run lasts`,
    );
  }
}
