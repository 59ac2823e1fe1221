import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { ExitCode, RalphError, UsageError } from '../core/errors.js';
import { defaultBranch, deleteBranch, isMergedInto, ralphBranch } from '../git/branches.js';
import { currentBranch, statusPorcelain } from '../git/index.js';
import { pruneWorktrees, removeWorktree } from '../git/worktree.js';
import { worktreeExcludesForgetter } from '../git/worktree-environment.js';
import { findWorkspaceTarget, refuseWhileRunning } from './workspace-target.js';

export interface CleanOptions {
  /** Also delete the PRD's branch. */
  deleteBranch?: boolean;
  /** Discard uncommitted work in the worktree, and delete a branch that is not merged. */
  force?: boolean;
}

export interface CleanResult {
  /** What became of the PRD's checkout; null when there was none. */
  checkout: { done: 'removed-worktree' | 'forgot-worktree' | 'deleted-folder'; path: string } | null;
  /** The PRD's branch, deleted or kept; null when it has none. */
  branch: { name: string; deleted: boolean } | null;
}

/**
 * `ralph clean [name]` (and the TUI's c): removes the PRD's worktree (and
 * with `deleteBranch` its branch). Refuses, changing nothing (exit 2), when
 * that would lose work: uncommitted changes in the worktree, or a branch
 * merged neither into its base nor pushed. `force` overrides both.
 */
export async function cleanWorkspace(
  root: string,
  name: string | undefined,
  opts: CleanOptions = {},
): Promise<CleanResult> {
  const target = await findWorkspaceTarget(root, name);
  await refuseWhileRunning(root, target.name);
  const { worktree, branch } = target;
  const force = opts.force ?? false;
  const stray = worktree === null && existsSync(target.dir);
  if (worktree === null && !stray && !(opts.deleteBranch && branch)) {
    throw new UsageError(`nothing to clean for ${target.name}: no worktree at ${target.dir}`);
  }

  // Every check first, so a refusal changes nothing.
  if (worktree?.present && !force) {
    const dirty = await statusPorcelain(worktree.path);
    if (dirty.length > 0) {
      throw new RalphError(
        `${worktree.path} has uncommitted changes; commit them there, or pass --force to discard them`,
        'dirty-worktree',
        ExitCode.Usage,
        dirty.slice(0, 20).map((e) => `${e.code} ${e.path}`),
      );
    }
  }
  if (stray && !force) {
    throw new UsageError(`${target.dir} is not a git worktree; pass --force to delete the folder`);
  }
  let base: string | null = null;
  if (opts.deleteBranch && branch) {
    base = (await ralphBranch(root, branch))?.base ?? (await defaultBranch(root));
    if ((await currentBranch(root)) === branch) {
      throw new UsageError(`${branch} is checked out in the main checkout; switch away from it first`);
    }
    if (!force && !(await isMergedInto(root, branch, base ? [base] : []))) {
      throw new RalphError(
        `${branch} has commits that are not merged into ${base ?? 'its base'} nor pushed`,
        'unmerged-branch',
        ExitCode.Usage,
        [`merge it first (ralph merge ${target.name}), or pass --force to delete it anyway`],
      );
    }
  }

  let checkout: CleanResult['checkout'] = null;
  if (worktree && !worktree.present) {
    await pruneWorktrees(root);
    checkout = { done: 'forgot-worktree', path: worktree.path };
  } else if (worktree) {
    const forgetExcludes = await worktreeExcludesForgetter(worktree.path);
    await removeWorktree(root, worktree.path, { force });
    await forgetExcludes(root);
    checkout = { done: 'removed-worktree', path: worktree.path };
  } else if (stray) {
    await rm(target.dir, { recursive: true, force: true });
    checkout = { done: 'deleted-folder', path: target.dir };
  }
  if (branch === null) return { checkout, branch: null };
  const deleted = opts.deleteBranch === true;
  if (deleted) await deleteBranch(root, branch);
  return { checkout, branch: { name: branch, deleted } };
}
