import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GitError, git, runGit } from './git.js';
import { isAncestor } from './history.js';
import { blobAt, blobOfFile, versionsOnBranch } from './known-version.js';
import { headSha } from './repo.js';
import { statusPorcelain } from './status.js';

export type MergeResult =
  | { kind: 'merged'; sha: string }
  | { kind: 'up-to-date' }
  /** The merge was aborted: HEAD, index and work tree are as they were before. */
  | { kind: 'conflict'; files: string[] };

/**
 * Merges `branch` into the branch checked out at `cwd` with a merge commit
 * (`--no-ff`), so the PRD's work stays one reviewable unit in history. On a
 * conflict the conflicted files are listed and the merge is aborted. Expects a
 * tree without tracked changes (`git merge --abort` cannot always bring those back).
 */
export async function mergeNoFf(cwd: string, branch: string, message?: string): Promise<MergeResult> {
  const ref = `refs/heads/${branch}`;
  if (await isAncestor(cwd, ref, 'HEAD')) return { kind: 'up-to-date' };
  const args = ['merge', '--no-ff', '--no-edit', '-m', message ?? `Merge branch '${branch}'`, ref];
  const result = await runGit(args, { cwd, allowFailure: true });
  if (result.exitCode === 0) return { kind: 'merged', sha: (await headSha(cwd)) ?? '' };
  if (!(await mergeInProgress(cwd)))
    throw new GitError(args, cwd, result.exitCode, result.stderr || result.stdout);
  const unmerged = (await git(['diff', '--name-only', '--diff-filter=U', '-z'], { cwd }))
    .split('\0')
    .filter(Boolean)
    .sort();
  if (await settleSuperseded(cwd, ref, unmerged)) return { kind: 'merged', sha: (await headSha(cwd)) ?? '' };
  await git(['merge', '--abort'], { cwd });
  return { kind: 'conflict', files: unmerged };
}

/**
 * Settles a conflict in which every conflicted file's version here is one the
 * branch already had and moved on from: the task file the user wrote and
 * committed here after the branch took a copy of it (add/add), which the run
 * then marked done. The branch's version is the newer one of the same file,
 * so it is taken and the merge committed. Returns false, touching nothing,
 * when any file holds work of its own on this side.
 */
async function settleSuperseded(cwd: string, ref: string, files: readonly string[]): Promise<boolean> {
  if (files.length === 0) return false;
  for (const file of files) {
    const ours = await blobAt(cwd, 'HEAD', file);
    if (ours === null || (await blobAt(cwd, 'MERGE_HEAD', file)) === null) return false;
    if (!(await versionsOnBranch(cwd, ref, file)).has(ours)) return false;
  }
  const specs = files.map((f) => `:(top,literal)${f}`);
  await git(['checkout', '--theirs', '--', ...specs], { cwd });
  await git(['add', '--', ...specs], { cwd });
  await git(['commit', '--quiet', '--no-edit'], { cwd });
  return true;
}

async function mergeInProgress(cwd: string): Promise<boolean> {
  return (await git(['rev-parse', '-q', '--verify', 'MERGE_HEAD'], { cwd, allowFailure: true })) !== '';
}

export interface UntrackedCopies {
  /**
   * Files here identical to a version `branch` already committed: safe to let
   * the merge replace. Untracked ones the branch adds, and tracked ones
   * changed here but not staged (the task file edited here, which the run
   * then took).
   */
  redundant: string[];
  /** Untracked files the merge would overwrite that `branch` never had in that form. */
  blocking: string[];
}

/**
 * Files in `cwd` that stand in the merge's way although `branch` has them.
 * The usual one is the task file written in the main checkout and committed
 * on the PRD branch when its worktree was made (with the config `ralph init`
 * wrote): git refuses to merge over it, although the branch has it (and a
 * newer version). A file whose exact content appears in the branch's history
 * of that path is redundant; an untracked one that does not would be lost.
 */
export async function untrackedCopiesOf(cwd: string, branch: string): Promise<UntrackedCopies> {
  const status = await statusPorcelain(cwd);
  const result: UntrackedCopies = { redundant: [], blocking: [] };
  if (status.length === 0) return result;
  const top = await git(['rev-parse', '--show-toplevel'], { cwd });
  const added = new Set(
    (
      await git(
        ['diff', '--name-only', '-z', '--no-renames', '--diff-filter=A', `HEAD...refs/heads/${branch}`],
        { cwd },
      )
    )
      .split('\0')
      .filter(Boolean),
  );
  const known = async (file: string) =>
    (await versionsOnBranch(cwd, `refs/heads/${branch}`, file)).has(
      await blobOfFile(cwd, path.join(top, file)),
    );
  for (const entry of status) {
    if (entry.code === '??' && added.has(entry.path)) {
      ((await known(entry.path)) ? result.redundant : result.blocking).push(entry.path);
    } else if (entry.code === ' M' && (await known(entry.path))) {
      result.redundant.push(entry.path);
    }
  }
  return result;
}

/**
 * Takes files out of the merge's way (an untracked one removed, a tracked one
 * back to its committed version), returning a function that puts them back
 * (used when a merge that was to replace them is aborted).
 */
export async function setAside(cwd: string, files: readonly string[]): Promise<() => Promise<void>> {
  const top = await git(['rev-parse', '--show-toplevel'], { cwd });
  const saved: { file: string; content: Buffer }[] = [];
  for (const file of files) {
    const full = path.join(top, file);
    saved.push({ file: full, content: await readFile(full) });
    if ((await blobAt(cwd, 'HEAD', file)) === null) await rm(full);
    else await git(['checkout', 'HEAD', '--', `:(top,literal)${file}`], { cwd });
  }
  return async () => {
    for (const { file, content } of saved) {
      // An aborted merge removes the folders it had created.
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
    }
  };
}
