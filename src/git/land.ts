import { existsSync } from 'node:fs';
import path from 'node:path';
import { git, runGit } from './git.js';
import { movingOwnRef, noteOwnRefMove } from './refs-guard.js';
import { restoreTo } from './reset.js';

/**
 * The git steps of the merge queue. A PRD checkout is detached while a
 * story is integrated in it, so its branch never moves with the work; the
 * branch moves only by `compareAndSwapRef`, once the result passed.
 */

/** Keeps HEAD at the same commit but no longer on a branch: commits made now move no branch. */
export async function detachHead(cwd: string): Promise<void> {
  await git(['switch', '--quiet', '--detach'], { cwd });
}

/** Puts HEAD back on `branch` without touching files or index (callers make sure they match). */
export async function attachHead(cwd: string, branch: string): Promise<void> {
  await git(['symbolic-ref', '-m', 'ralph: integrated', 'HEAD', `refs/heads/${branch}`], { cwd });
}

/**
 * Moves `refs/heads/<branch>` to `to` only if it still points at `from`: a
 * compare-and-swap, so a concurrent writer can never be overwritten.
 * Returns false when the branch had moved.
 */
export async function compareAndSwapBranch(
  cwd: string,
  branch: string,
  to: string,
  from: string,
  message: string,
): Promise<boolean> {
  const ref = `refs/heads/${branch}`;
  // Agents running meanwhile may not move it; this move is ralph's own (see refs-guard.ts).
  return movingOwnRef(ref, async () => {
    const result = await runGit(['update-ref', '-m', message, ref, to, from], { cwd, allowFailure: true });
    if (result.exitCode === 0) noteOwnRefMove(ref, to);
    return result.exitCode === 0;
  });
}

/** Ends a rebase or cherry-pick a killed run left half done, if any. */
export async function abortSequencer(cwd: string): Promise<void> {
  const gitDir = path.resolve(cwd, await git(['rev-parse', '--git-dir'], { cwd }));
  if (existsSync(path.join(gitDir, 'rebase-merge')) || existsSync(path.join(gitDir, 'rebase-apply'))) {
    await runGit(['rebase', '--abort'], { cwd, allowFailure: true });
  }
  if (existsSync(path.join(gitDir, 'CHERRY_PICK_HEAD')) || existsSync(path.join(gitDir, 'sequencer'))) {
    await runGit(['cherry-pick', '--abort'], { cwd, allowFailure: true });
  }
}

/** Puts a (detached) checkout back on `branch` at the branch's tip, files and all. */
export async function returnToBranch(cwd: string, branch: string): Promise<void> {
  await abortSequencer(cwd);
  await restoreTo(cwd, `refs/heads/${branch}`);
  await attachHead(cwd, branch);
}

export type RebaseResult = { ok: true; head: string } | { ok: false; files: string[]; diff: string };

// No editor may open in an unattended run; a rebase that wants one takes the message as it is.
const NO_EDITOR = { GIT_EDITOR: 'true', GIT_SEQUENCE_EDITOR: 'true' };

/**
 * Replays the commits `upstream..head` onto `onto`, in the detached checkout
 * at `cwd` (the story's commits onto the PRD branch's tip; with nothing new
 * on the tip the commits are kept as they are). A conflict only in paths
 * `keepOurs` accepts (the tool's own files, whose record the tool rewrites
 * anyway) is settled with the tip's version; any other conflict aborts the
 * rebase and is returned with the conflicted files and their diff (with
 * conflict markers). The checkout is then wherever the abort left it.
 */
export async function rebaseOnto(
  cwd: string,
  range: { onto: string; upstream: string; head: string },
  keepOurs: (path: string) => boolean,
): Promise<RebaseResult> {
  const env = NO_EDITOR;
  let step = await runGit(['rebase', '--quiet', '--onto', range.onto, range.upstream, range.head], {
    cwd,
    env,
    allowFailure: true,
  });
  // Each round settles one replayed commit; a story has far fewer commits than this.
  for (let round = 0; step.exitCode !== 0 && round < 500; round++) {
    const files = await unmergedPaths(cwd);
    if (files.length === 0 && (await nothingStaged(cwd))) {
      // The commit became empty once the tool's files were settled: drop it.
      step = await runGit(['rebase', '--skip'], { cwd, env, allowFailure: true });
      continue;
    }
    if (files.length === 0 || !files.every(keepOurs)) {
      const diff = (await runGit(['diff', '--no-color', '--no-ext-diff'], { cwd, allowFailure: true }))
        .stdout;
      await runGit(['rebase', '--abort'], { cwd, allowFailure: true });
      return { ok: false, files: files.length > 0 ? files : ['(unknown)'], diff };
    }
    for (const file of files) {
      const inHead = await runGit(['cat-file', '-e', `HEAD:${file}`], { cwd, allowFailure: true });
      if (inHead.exitCode === 0) await git(['checkout', 'HEAD', '--', file], { cwd });
      else await git(['rm', '--quiet', '--force', '--', file], { cwd });
    }
    step = await runGit(['rebase', '--continue'], { cwd, env, allowFailure: true });
  }
  if (step.exitCode !== 0) {
    await runGit(['rebase', '--abort'], { cwd, allowFailure: true });
    return { ok: false, files: ['(unknown)'], diff: step.stderr };
  }
  return { ok: true, head: await git(['rev-parse', 'HEAD'], { cwd }) };
}

async function unmergedPaths(cwd: string): Promise<string[]> {
  const out = await git(['diff', '--name-only', '--diff-filter=U', '-z'], { cwd });
  return [...new Set(out.split('\0').filter(Boolean))].sort();
}

async function nothingStaged(cwd: string): Promise<boolean> {
  const { exitCode } = await runGit(['diff', '--cached', '--quiet'], { cwd, allowFailure: true });
  return exitCode === 0;
}
