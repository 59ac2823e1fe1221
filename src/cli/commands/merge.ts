import { ExitCode, RalphError, UsageError } from '../../core/errors.js';
import { defaultBranch, ralphBranch, ralphBranches } from '../../git/branches.js';
import { currentBranch, runGit, type StatusEntry, statusPorcelain } from '../../git/index.js';
import { mergeNoFf, setAside, untrackedCopiesOf } from '../../git/merge.js';
import { listRalphWorktrees, type RalphWorktree } from '../../git/ralph-worktrees.js';
import { canonicalPath } from '../../git/worktree.js';
import { runPaths, validatePrdName, worktreeDir, worktreesDir } from '../../state/layout.js';
import { inspectLock } from '../../state/lock.js';
import { findProjectRoot } from '../../state/project-root.js';
import { resolveTarget } from '../../state/resolve-target.js';
import { print, printError } from '../output.js';

export interface MergeCommandOptions {
  cwd?: string;
}

/**
 * `ralph merge [name]`: merges the PRD's branch, with a merge commit, into
 * the branch it was created from, in the main checkout. On a conflict the
 * files are listed, the merge is aborted and both branches stay as they were (exit 1).
 */
export async function mergeCommand(
  name: string | undefined,
  opts: MergeCommandOptions = {},
): Promise<number> {
  const root = await findProjectRoot(opts.cwd ?? process.cwd());
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
  if (target.worktree?.present && (await statusPorcelain(target.worktree.path)).length > 0) {
    printError(
      `ralph: note: ${target.worktree.path} has uncommitted changes; they are not part of the merge`,
    );
  }

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
  switch (result.kind) {
    case 'up-to-date':
      await putBack();
      print(`${branch} is already merged into ${base}; nothing to do`);
      return ExitCode.Success;
    case 'merged':
      print(`merged ${branch} into ${base} (${result.sha.slice(0, 7)})`);
      print(`remove the worktree and branch with: ralph clean ${target.name} --delete-branch`);
      return ExitCode.Success;
    case 'conflict':
      await putBack();
      throw new RalphError(
        `merging ${branch} into ${base} conflicts; the merge was aborted and both branches are unchanged`,
        'merge-conflict',
        ExitCode.WorkLeft,
        [...result.files.map((f) => `conflict: ${f}`), `resolve it by hand: git merge --no-ff ${branch}`],
      );
  }
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

export interface WorkspaceTarget {
  name: string;
  /** `.ralph/worktrees/<name>/`, whether or not it exists. */
  dir: string;
  worktree: RalphWorktree | null;
  /** The PRD's branch: the worktree's, else the one ralph recorded for this name. */
  branch: string | null;
}

/**
 * Which PRD `ralph merge` / `ralph clean` act on: the name given; else the
 * only ralph worktree; else the default PRD (the only one, or `main`).
 */
export async function findWorkspaceTarget(root: string, name: string | undefined): Promise<WorkspaceTarget> {
  const worktrees = await listRalphWorktrees(root, worktreesDir(root));
  let chosen = name === undefined ? undefined : validatePrdName(name);
  if (chosen === undefined) {
    const live = worktrees.filter((w) => w.registered && w.present);
    if (live.length === 1) chosen = live[0]?.name;
    else {
      try {
        chosen = (await resolveTarget(root)).name;
      } catch (error) {
        if (!(error instanceof UsageError) || live.length === 0) throw error;
        throw new UsageError('several PRD worktrees; say which one', [live.map((w) => w.name).join(', ')]);
      }
    }
  }
  if (chosen === undefined) throw new UsageError('no PRD named; say which one');
  const dir = worktreeDir(root, chosen);
  const worktree = worktrees.find((w) => canonicalPath(w.path) === canonicalPath(dir)) ?? null;
  let branch = worktree?.branch ?? null;
  if (branch === null) {
    const recorded = (await ralphBranches(root)).filter((b) => b.name === chosen);
    if (recorded.length > 1) {
      throw new UsageError(`several branches were made for ${chosen}`, [
        recorded.map((b) => b.branch).join(', '),
      ]);
    }
    branch = recorded[0]?.branch ?? null;
  }
  return { name: chosen, dir, worktree, branch };
}

/** Merging or removing under a running loop would pull the ground from under it. */
export async function refuseWhileRunning(root: string, name: string): Promise<void> {
  const lock = await inspectLock(runPaths(root, name).lock);
  if (lock.kind !== 'held') return;
  const who = lock.info ? ` (pid ${lock.info.pid} on ${lock.info.host})` : '';
  throw new RalphError(`a run of ${name} is in progress${who}; stop it first`, 'locked', ExitCode.Locked);
}
