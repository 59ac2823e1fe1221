import { ExitCode, RalphError, UsageError } from '../core/errors.js';
import { defaultBranch, ralphBranch } from '../git/branches.js';
import { currentBranch, runGit, type StatusEntry, statusPorcelain } from '../git/index.js';
import { mergeNoFf, setAside, untrackedCopiesOf } from '../git/merge.js';
import { findWorkspaceTarget, refuseWhileRunning } from './workspace-target.js';

/** What `mergeWorkspace` did with the PRD's branch. */
interface MergeResult {
  /** `conflict`: the merge was aborted, both branches as they were; `files` conflicted. */
  kind: 'up-to-date' | 'merged' | 'conflict';
  name: string;
  branch: string;
  base: string;
  /** The merge commit. */
  sha?: string;
  files?: readonly string[];
  /** The PRD's worktree, when it holds uncommitted changes: they are not part of the merge. */
  uncommittedIn?: string;
}

/**
 * `ralph merge [name]` (and the TUI's m): merges the PRD's branch, with a
 * merge commit, into the branch it was created from, in the main checkout.
 * Refuses (a thrown error, nothing changed) when it cannot tell the base, the
 * main checkout is elsewhere or has changes in the way. On a conflict the
 * merge is aborted and both branches stay as they were.
 */
export async function mergeWorkspace(root: string, name: string | undefined): Promise<MergeResult> {
  const target = await findWorkspaceTarget(root, name);
  const branch = target.branch;
  if (branch === null) {
    throw new UsageError(`no branch to merge for ${target.name}`, [
      `there is no worktree at ${target.dir} and no branch ralph made for ${target.name}`,
    ]);
  }
  await refuseWhileRunning(root, target.name);
  const base = (await ralphBranch(root, branch))?.base ?? (await defaultBranch(root));
  const here = await currentBranch(root);
  if (base === null || base === branch) throw new UsageError(`cannot tell which branch ${branch} came from`);
  if (here !== base) {
    throw new UsageError(
      `${branch} came from ${base}, but the main checkout is on ${here ?? 'a detached HEAD'}`,
      [`switch to it first: git switch ${base}`],
    );
  }
  // The task file the user wrote here was committed on the branch: let the merge bring the branch's version.
  const copies = await untrackedCopiesOf(root, branch);
  const tracked = (await changesInTheWay(root, branch)).filter((e) => !copies.redundant.includes(e.path));
  if (tracked.length > 0) {
    throw new RalphError(
      'the main checkout has uncommitted changes; commit or stash them before merging',
      'dirty-tree',
      ExitCode.Usage,
      tracked.slice(0, 20).map((e) => `${e.code} ${e.path}`),
    );
  }
  const uncommitted =
    target.worktree?.present && (await statusPorcelain(target.worktree.path)).length > 0
      ? { uncommittedIn: target.worktree.path }
      : {};

  if (copies.blocking.length > 0) {
    throw new RalphError(
      `untracked files here would be overwritten by ${branch}; move them away first`,
      'untracked-in-the-way',
      ExitCode.Usage,
      copies.blocking,
    );
  }
  const putBack = await setAside(root, copies.redundant);
  const result = await mergeNoFf(root, branch).catch(async (error: unknown) => {
    await putBack();
    throw error;
  });
  const merged = { name: target.name, branch, base, ...uncommitted };
  if (result.kind === 'merged') return { ...merged, kind: 'merged', sha: result.sha };
  await putBack();
  return result.kind === 'conflict'
    ? { ...merged, kind: 'conflict', files: result.files }
    : { ...merged, kind: 'up-to-date' };
}

/** Where the TUI's settings screen saves (`,`): ralph's own change, not the user's work. */
const CONFIG_FILE = '.ralph/config.yaml';

/**
 * The main checkout's uncommitted changes that stop a merge. An unstaged
 * edit of `.ralph/config.yaml` (the TUI's settings) is not one of them when
 * the branch leaves that file alone: git merges around it and the edit stays
 * uncommitted, as it was.
 */
async function changesInTheWay(root: string, branch: string): Promise<StatusEntry[]> {
  const tracked = (await statusPorcelain(root)).filter((e) => e.code !== '??');
  const config = tracked.find((e) => e.path === CONFIG_FILE && e.code === ' M');
  if (config === undefined) return tracked;
  const touched = await runGit(['diff', '--quiet', `HEAD...${branch}`, '--', CONFIG_FILE], {
    cwd: root,
    allowFailure: true,
  });
  return touched.exitCode === 0 ? tracked.filter((e) => e !== config) : tracked;
}
