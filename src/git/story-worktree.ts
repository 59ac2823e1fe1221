import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { git, runGit } from './git.js';
import { cleanUntracked } from './reset.js';
import { deleteBranchIfPresent } from './story-branches.js';
import { canonicalPath, findWorktree, pruneWorktrees } from './worktree.js';

export interface StoryCheckout {
  dir: string;
  branch: string;
  /** A worktree was made (not reused): `worktree.setup` has not run in it yet. */
  created: boolean;
}

/**
 * Gets a story's own checkout ready at `from` (the PRD branch's tip): its
 * worktree on its branch, reset to `from` when it is left over from an
 * earlier attempt at the same story (that keeps ignored files such as
 * installed dependencies), made fresh otherwise.
 */
export function prepareStoryCheckout(
  root: string,
  options: { dir: string; branch: string; from: string },
): Promise<StoryCheckout> {
  return oneAtATime(root, async () => {
    const { dir, branch, from } = options;
    const existing = await findWorktree(root, dir);
    if (existing && existing.branch === branch && existsSync(dir)) {
      await git(['reset', '--hard', '--quiet', from, '--'], { cwd: dir });
      await cleanUntracked(dir);
      return { dir, branch, created: false };
    }
    // Whatever is left of an earlier worktree there goes first; a branch alone is reset by -B.
    if (existing || existsSync(dir)) await removeUnlocked(root, { dir });
    // -B: a branch left behind without its worktree is reset to `from`, not an error.
    await git(['worktree', 'add', '--quiet', '--no-track', '-B', branch, dir, from], { cwd: root });
    return { dir, branch, created: true };
  });
}

/**
 * A story's checkout detached at `at`, its branch left where it is (it may
 * hold the story's verdict): the worktree reused when there is one,
 * whatever state a killed run left it in, or made fresh.
 */
export function prepareDetachedStoryCheckout(
  root: string,
  options: { dir: string; at: string },
): Promise<{ created: boolean }> {
  return oneAtATime(root, async () => {
    const { dir, at } = options;
    if ((await findWorktree(root, dir)) && existsSync(dir)) {
      // A squash merge cut short leaves an index with conflicts: reset clears it.
      await git(['reset', '--hard', '--quiet'], { cwd: dir });
      await git(['switch', '--detach', '--quiet', '--discard-changes', at], { cwd: dir });
      await cleanUntracked(dir);
      return { created: false };
    }
    await removeUnlocked(root, { dir });
    await git(['worktree', 'add', '--quiet', '--detach', dir, at], { cwd: root });
    return { created: true };
  });
}

/**
 * Removes a story's worktree (uncommitted work in it is discarded) and
 * deletes its branch. Safe to call for a story that has neither.
 */
export function removeStoryCheckout(root: string, options: { dir?: string; branch?: string }): Promise<void> {
  return oneAtATime(root, () => removeUnlocked(root, options));
}

async function removeUnlocked(root: string, options: { dir?: string; branch?: string }): Promise<void> {
  const { dir } = options;
  if (dir !== undefined && existsSync(dir)) {
    const removed = await runGit(['worktree', 'remove', '--force', '--force', canonicalPath(dir)], {
      cwd: root,
      allowFailure: true,
    });
    // Not a worktree (any more), or one git could not remove: the folder goes, and git forgets it.
    if (removed.exitCode !== 0) {
      await rm(dir, { recursive: true, force: true });
      await pruneWorktrees(root);
    }
  } else if (dir !== undefined && (await findWorktree(root, dir))) {
    await pruneWorktrees(root);
  }
  if (options.branch) await deleteBranchIfPresent(root, options.branch);
}

/**
 * `git worktree add` and `remove` are not safe to run at once in one
 * repository: one can read the other's half-written administrative folder
 * ("failed to read .git/worktrees/<id>/commondir") and fail. The workers of
 * a run share the repository, so its worktree changes go one at a time.
 */
const queues = new Map<string, Promise<unknown>>();

function oneAtATime<T>(root: string, work: () => Promise<T>): Promise<T> {
  const key = canonicalPath(root);
  const turn = (queues.get(key) ?? Promise.resolve()).then(work);
  const settled = turn.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return turn;
}
