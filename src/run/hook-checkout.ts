/**
 * What a hook writes is kept, and never lands inside an attempt (seed 004
 * hooks that extract learnings or update docs write files). A sequential
 * hook runs in the loop's checkout between iterations: its changes are
 * committed as a commit of their own right after it. A parallel hook runs in
 * a checkout of its own, a detached worktree at the loop's HEAD, while the
 * next attempt goes on; its commits are brought onto the loop's branch
 * between two iterations, or kept under a ref when they conflict.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { isTemporaryFile } from '../core/temporary-files.js';
import {
  type CommitInfo,
  commitPaths,
  commitsSince,
  git,
  headSha,
  isAncestor,
  runGit,
  statusPorcelain,
} from '../git/index.js';
import { movingOwnBranch } from '../git/refs-guard.js';
import { addDetachedWorktree, pruneWorktrees, removeWorktree } from '../git/worktree.js';

export const HOOK_REF_PREFIX = 'refs/ralph/hooks/';

/** Where parallel hooks' checkouts live: `.ralph/runs/<name>/hooks/checkouts/<iteration>-<id>`. */
export const hookCheckoutsDir = (runDir: string): string => path.join(runDir, 'hooks', 'checkouts');

/** The subject of the commit holding what a hook wrote. */
export const hookCommitMessage = (hookId: string, iteration: number): string =>
  `chore(ralph): hook ${hookId} after iteration ${iteration}`;

/**
 * Commits everything left uncommitted in `cwd` (ignored files, and ralph's
 * own temporaries, aside); returns the commits a hook made, oldest first.
 */
export async function commitHookChanges(cwd: string, since: string, message: string): Promise<CommitInfo[]> {
  const paths = (await statusPorcelain(cwd))
    .flatMap((e) => (e.from ? [e.path, e.from] : [e.path]))
    .filter((p) => !isTemporaryFile(p));
  // A hook's work is the run's own: where it left a branch the merge queue holds is where it belongs.
  if (paths.length > 0) await movingOwnBranch(cwd, () => commitPaths(cwd, paths, message));
  return commitsSince(cwd, since);
}

export interface HookCheckout {
  dir: string;
  /** The loop's HEAD when the checkout was made. */
  base: string;
}

/** A detached worktree at `cwd`'s HEAD, in `dir` (replacing whatever is there). */
export async function openHookCheckout(cwd: string, dir: string): Promise<HookCheckout> {
  const base = await headSha(cwd);
  if (base === null) throw new Error('the repository has no commits');
  await dropCheckout(cwd, dir);
  await mkdir(path.dirname(dir), { recursive: true });
  await addDetachedWorktree(cwd, dir, base);
  return { dir, base };
}

export type Landing =
  | { kind: 'landed'; commits: CommitInfo[] }
  /** It conflicts with what the loop committed since: its commits are under `ref`, not on the branch. */
  | { kind: 'kept'; ref: string; reason: string };

/**
 * Brings a parallel hook's work onto the loop's branch: its uncommitted
 * changes are committed in its checkout (`message`), then its commits are
 * fast-forwarded or cherry-picked onto `cwd`'s HEAD. Call it only between
 * iterations, with `cwd` clean. The checkout is removed either way.
 */
export async function landHookCheckout(
  cwd: string,
  checkout: HookCheckout,
  message: string,
  ref: string,
): Promise<Landing> {
  try {
    const made = await commitHookChanges(checkout.dir, checkout.base, message);
    const tip = made.at(-1)?.sha;
    if (tip === undefined) return { kind: 'landed', commits: [] };
    const head = await headSha(cwd);
    if (head === checkout.base) {
      await movingOwnBranch(cwd, () => git(['merge', '--ff-only', '--quiet', tip], { cwd }));
      return { kind: 'landed', commits: made };
    }
    // Aborted inside the move: the branch is held where the abort leaves it, never at a half-picked commit.
    const picked = await movingOwnBranch(cwd, async () => {
      const range = `${checkout.base}..${tip}`;
      const result = await runGit(['cherry-pick', '--keep-redundant-commits', range], {
        cwd,
        allowFailure: true,
      });
      if (result.exitCode !== 0) await runGit(['cherry-pick', '--abort'], { cwd, allowFailure: true });
      return result;
    });
    if (picked.exitCode === 0) return { kind: 'landed', commits: await commitsSince(cwd, head) };
    await git(['update-ref', ref, tip], { cwd });
    const why = picked.stderr.trim().split('\n')[0] ?? '';
    return { kind: 'kept', ref, reason: `its changes conflict with the branch${why ? ` (${why})` : ''}` };
  } finally {
    await dropCheckout(cwd, checkout.dir);
  }
}

/**
 * Checkouts a killed run left in `parent`: whatever they hold that the
 * branch does not is kept under `refPrefix<folder>`, then they are removed.
 * Returns the refs made.
 */
export async function sweepHookCheckouts(cwd: string, parent: string, refPrefix: string): Promise<string[]> {
  const names = await readdir(parent).catch(() => [] as string[]);
  const head = await headSha(cwd);
  const kept: string[] = [];
  for (const name of names) {
    const dir = path.join(parent, name);
    try {
      const base = await headSha(dir);
      if (base !== null)
        await commitHookChanges(dir, base, `chore(ralph): hook checkout ${name}, left by an interrupted run`);
      const tip = await headSha(dir);
      if (tip !== null && head !== null && !(await isAncestor(cwd, tip, head))) {
        await git(['update-ref', `${refPrefix}${name}`, tip], { cwd });
        kept.push(`${refPrefix}${name}`);
      }
    } catch {
      // Not a checkout any more: removed below all the same.
    }
    await dropCheckout(cwd, dir);
  }
  return kept;
}

async function dropCheckout(cwd: string, dir: string): Promise<void> {
  await removeWorktree(cwd, dir, { force: true }).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
  await pruneWorktrees(cwd);
}
