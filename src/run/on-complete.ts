import type { Prd } from '../core/types.js';
import type { RunEvent } from '../events/run-event.js';
import { defaultBranch, ralphBranch } from '../git/branches.js';
import {
  createPullRequest,
  type PullRequestResult,
  type PullRequestStory,
  type PullRequestUnit,
  pullRequestBody,
  pullRequestTitle,
} from '../git/pull-request.js';
import { pushBranch } from '../git/remote.js';
import type { RunState } from '../state/run-state.js';

export interface OnCompleteOptions {
  /** The worktree (or checkout) holding the branch. */
  cwd: string;
  branch: string;
  /** The PR's target; default the branch's recorded base, else the default branch. */
  base?: string | null;
  name: string;
  project: string;
  stories: readonly PullRequestStory[];
  /** `step`: the pull request lists a goal run's steps. */
  unit?: PullRequestUnit;
  push: boolean;
  createPR: boolean;
  emit?: (event: RunEvent) => void;
  /** The environment `gh` runs with (its PATH decides which gh); default this process's. */
  env?: NodeJS.ProcessEnv;
  /** Where the pull request is opened instead of `gh pr create` (the issues' repository, through its API). */
  pullRequests?: PullRequestHost;
}

/** Opens pull requests for a run whose tasks live with them (GitHub issues), and closes those tasks there. */
export interface PullRequestHost {
  open(pr: { title: string; body: string; head: string; base: string }): Promise<PullRequestResult>;
  /** What the body adds for the stories it lands: `Closes #N` for each issue. */
  notes(storyIds: readonly string[]): string;
}

export interface OnCompleteResult {
  pushed: boolean;
  prUrl: string | null;
}

/**
 * After every story passed: push the branch and open a pull request, as the
 * config (`onComplete`) or `--push` / `--pr` ask. A pull request needs the
 * branch on the remote, so `createPR` pushes too. Nothing here throws for a
 * missing remote, a missing `gh` or missing credentials: each becomes an
 * event with a clear message, and the run's result stands.
 */
export async function onComplete(options: OnCompleteOptions): Promise<OnCompleteResult> {
  const { cwd, branch, emit } = options;
  const result: OnCompleteResult = { pushed: false, prUrl: null };
  if (!options.push && !options.createPR) return result;

  emit?.({ type: 'push-started', branch });
  const push = await pushBranch(cwd, branch);
  if (!push.ok) {
    emit?.({ type: 'push-failed', branch, remote: push.remote, message: push.message });
    if (options.createPR)
      emit?.({ type: 'pr-failed', message: 'not created: the branch could not be pushed' });
    return result;
  }
  result.pushed = true;
  emit?.({ type: 'branch-pushed', branch, remote: push.remote });
  if (!options.createPR) return result;

  const base = options.base ?? (await ralphBranch(cwd, branch))?.base ?? (await defaultBranch(cwd));
  if (!base || base === branch) {
    emit?.({ type: 'pr-failed', message: `no base branch to open a pull request against for ${branch}` });
    return result;
  }
  emit?.({ type: 'pr-started', branch, base });
  const notes = options.pullRequests?.notes(options.stories.map((s) => s.id));
  const request = {
    title: pullRequestTitle(options.name, options.project),
    body: pullRequestBody({
      name: options.name,
      project: options.project,
      stories: options.stories,
      ...(options.unit ? { unit: options.unit } : {}),
      ...(notes ? { notes } : {}),
    }),
    head: branch,
    base,
  };
  const pr = options.pullRequests
    ? await options.pullRequests.open(request)
    : await createPullRequest({ cwd, ...request, ...(options.env ? { env: options.env } : {}) });
  switch (pr.kind) {
    case 'created':
    case 'exists':
      result.prUrl = pr.url;
      emit?.({ type: 'pr-created', url: pr.url, existing: pr.kind === 'exists' });
      break;
    case 'gh-missing':
      emit?.({ type: 'pr-failed', message: `${pr.message}; open it by hand: ${branch} -> ${base}` });
      break;
    case 'failed':
      if (options.pullRequests) {
        emit?.({ type: 'pr-failed', message: `the pull request was not opened: ${pr.message}` });
        break;
      }
      emit?.({
        type: 'pr-failed',
        message: `gh pr create failed${pr.exitCode === null ? '' : ` (exit ${pr.exitCode})`}: ${pr.message}${/auth|login|token/i.test(pr.message) ? '\nrun `gh auth login`, then `gh pr create`' : ''}`,
      });
      break;
  }
  return result;
}

/** The stories that passed, in task-file order, with their attempts and cost from the run state. */
export function completedStories(prd: Pick<Prd, 'stories'>, state: RunState | null): PullRequestStory[] {
  return prd.stories
    .filter((s) => s.status === 'done')
    .map((s) => {
      const run = state?.stories[s.id];
      return { id: s.id, title: s.title, attempts: run?.attempts ?? 0, costUsd: run?.costUsd ?? 0 };
    });
}
