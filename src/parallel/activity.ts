import { storyBranchesPrefix } from '../core/story-ref.js';
import { isGitRepo } from '../git/index.js';
import { listStoryBranches } from '../git/story-branches.js';
import type { RunState } from '../state/run-state.js';

export interface RunningStory {
  id: string;
  worker: number;
  attempt: number;
  iteration: number;
  startedAt: string;
}

export interface VerifiedStory {
  id: string;
  attempt: number;
  branch: string;
  verifiedAt: string;
}

/**
 * What a parallel run is doing, as `ralph status` shows it: the attempts in
 * flight (from the run state) and the verified stories waiting on their
 * branches to land (from git, so also those a killed run left).
 */
export async function parallelActivity(
  root: string,
  name: string,
  run: RunState | null,
  /** Whether `root` is in git, when the caller knows it already. */
  inGit?: boolean,
): Promise<{ running: RunningStory[]; verified: VerifiedStory[] }> {
  const running = (run?.running ?? []).map((r) => ({
    id: r.storyId,
    worker: r.worker,
    attempt: r.attempt,
    iteration: r.iteration,
    startedAt: r.startedAt,
  }));
  const branches =
    (inGit ?? (await isGitRepo(root))) ? await listStoryBranches(root, storyBranchesPrefix(name)) : [];
  const verified = branches.flatMap((b) =>
    b.verdict && b.verdict.prd === name
      ? [
          {
            id: b.verdict.storyId,
            attempt: b.verdict.attempt,
            branch: b.branch,
            verifiedAt: b.verdict.verifiedAt,
          },
        ]
      : [],
  );
  return { running, verified };
}

/**
 * Whether a parallel run of this PRD stopped without finishing its work:
 * attempts or a landing in flight when it died, or story branches left.
 * Such a run is resumed by the parallel runner, whatever `--parallel` says
 * now: only it knows how to stop those agents, undo a half-done landing
 * and land verified work.
 */
export async function hasParallelLeftovers(
  root: string,
  name: string,
  run: RunState | null,
): Promise<boolean> {
  if ((run?.running ?? []).length > 0 || run?.integrating !== undefined || run?.resolving !== undefined) {
    return true;
  }
  if (!(await isGitRepo(root))) return false;
  return (await listStoryBranches(root, storyBranchesPrefix(name))).length > 0;
}
