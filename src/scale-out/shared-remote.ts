import { ExitCode, RalphError } from '../core/errors.js';
import { STORY_BRANCH_PREFIX } from '../core/story-ref.js';
import { formatSetbackMessage, parseSetbackMessage, type StorySetback } from '../core/story-setback.js';
import { git, isAncestor, runGit } from '../git/index.js';
import { listStoryBranches, refSha, type StoryBranch } from '../git/story-branches.js';
import { TOOL_IDENTITY } from '../git/tool-identity.js';
import { listWorktrees } from '../git/worktree.js';

/**
 * The shared remote that jobs on different machines hand work over through:
 * the PRD branch and the story branches (`ralph-stories/<prd>/<story>`,
 * whose tip is a verdict once verified). Every write is a push with a lease
 * on the value read, so two jobs racing can never both move a ref.
 */
export const REMOTE = 'origin';

/** The remote refused or lost what a role needs: the job ends with exit 1 and git's own words. */
export class SharedRemoteError extends RalphError {
  constructor(message: string) {
    super(message, 'remote', ExitCode.WorkLeft);
  }
}

const tracking = (branch: string) => `refs/remotes/${REMOTE}/${branch}`;

/**
 * Fetches the PRD branch and the PRD's story branches as they are on the
 * remote now; remote-tracking refs of branches gone there are pruned. The
 * PRD branch is fetched through a one-star pattern so that a remote without
 * it yet is not an error (others it matches are fetched and ignored).
 */
export async function fetchShared(root: string, prdBranch: string, prdName: string): Promise<void> {
  const stories = `refs/heads/${STORY_BRANCH_PREFIX}/${prdName}/*`;
  await git(
    [
      'fetch',
      '--quiet',
      '--prune',
      '--no-tags',
      '--no-write-fetch-head',
      REMOTE,
      `+refs/heads/${prdBranch}*:${tracking(prdBranch)}*`,
      `+${stories}:${tracking(`${STORY_BRANCH_PREFIX}/${prdName}/*`)}`,
    ],
    { cwd: root },
  );
}

/** The PRD branch's tip on the remote as last fetched; null when the remote has no such branch yet. */
export const sharedTip = (root: string, prdBranch: string): Promise<string | null> =>
  refSha(root, tracking(prdBranch));

export interface SharedStoryBranch extends StoryBranch {
  /** Set when the tip records failed attempts rather than a verdict. */
  setback: StorySetback | null;
}

/** The PRD's story branches on the remote as last fetched (`branch` is the branch's name there). */
export async function sharedStoryBranches(root: string, prdName: string): Promise<SharedStoryBranch[]> {
  const branches = await listStoryBranches(root, `${tracking(`${STORY_BRANCH_PREFIX}/${prdName}`)}/`);
  const shared: SharedStoryBranch[] = [];
  for (const b of branches) {
    const setback = b.verdict === null ? await setbackAt(root, b.tip) : null;
    shared.push({ ...b, branch: b.branch.replace(/^refs\/remotes\/[^/]+\//, ''), setback });
  }
  return shared;
}

/** The setback commit `sha` records, if it is one. */
async function setbackAt(root: string, sha: string): Promise<StorySetback | null> {
  const { stdout, exitCode } = await runGit(['log', '-1', '--format=%B', sha, '--'], {
    cwd: root,
    allowFailure: true,
  });
  return exitCode === 0 ? parseSetbackMessage(stdout) : null;
}

/**
 * Puts a setback on the story's branch on the remote, in place of what was
 * there (`expected`): an empty commit on top of `parent` (same tree).
 */
export async function pushSetback(
  root: string,
  branch: string,
  change: { parent: string; setback: StorySetback; expected: string | null },
): Promise<LeaseResult> {
  const tree = await git(['rev-parse', `${change.parent}^{tree}`], { cwd: root });
  const sha = await git(
    ['commit-tree', tree, '-p', change.parent, '-m', formatSetbackMessage(change.setback)],
    {
      cwd: root,
      env: TOOL_IDENTITY,
    },
  );
  return pushWithLease(root, branch, sha, change.expected);
}

/**
 * Brings the local PRD branch to the remote's tip: created there when
 * missing, fast-forwarded (in the checkout that has it, if any) when
 * behind. The remote is the record a role works from; a local branch with
 * commits the remote lacks is refused rather than thrown away.
 */
export async function syncPrdBranch(root: string, prdBranch: string): Promise<void> {
  const remote = await sharedTip(root, prdBranch);
  if (remote === null) return;
  const local = await refSha(root, `refs/heads/${prdBranch}`);
  if (local === remote) return;
  if (local !== null && !(await isAncestor(root, local, remote))) {
    throw new SharedRemoteError(
      `${prdBranch} has commits that ${REMOTE}/${prdBranch} does not; push them, or reset the branch to ${REMOTE}/${prdBranch}`,
    );
  }
  const checkout = (await listWorktrees(root)).find((w) => w.branch === prdBranch);
  if (checkout) await git(['merge', '--ff-only', '--quiet', remote], { cwd: checkout.path });
  else
    await git(['update-ref', '-m', 'ralph: sync', `refs/heads/${prdBranch}`, remote, local ?? ''], {
      cwd: root,
    });
}

/** `changed` is false when the remote already had exactly that (another job made the very same commit). */
export type LeaseResult = { ok: true; changed: boolean } | { ok: false; message: string };

/**
 * Sets (or, with `to` null, deletes) `refs/heads/<branch>` on the remote,
 * only if it is still `expected` there (null: only if it does not exist):
 * `git push --force-with-lease`, the remote's compare-and-swap.
 */
export async function pushWithLease(
  root: string,
  branch: string,
  to: string | null,
  expected: string | null,
): Promise<LeaseResult> {
  const ref = `refs/heads/${branch}`;
  const result = await runGit(
    ['push', '--porcelain', `--force-with-lease=${ref}:${expected ?? ''}`, REMOTE, `${to ?? ''}:${ref}`],
    { cwd: root, allowFailure: true },
  );
  // --porcelain flags a ref it changed with ` ` (fast-forward), `+` (forced), `*` (new) or `-` (deleted); one
  // already at that commit is `=` or left out, and then no lease was checked: another job made the very same commit.
  if (result.exitCode === 0) return { ok: true, changed: /^[ +*-]\t/m.test(result.stdout) };
  const lines = `${result.stdout}\n${result.stderr}`.trim().split('\n').filter(Boolean);
  return { ok: false, message: lines.slice(-3).join('\n') || `git push exited ${result.exitCode}` };
}
