import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GitError, git, runGit } from './git.js';
import { isAncestor } from './history.js';
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
  const unmerged = await git(['diff', '--name-only', '--diff-filter=U', '-z'], { cwd });
  await git(['merge', '--abort'], { cwd });
  return { kind: 'conflict', files: unmerged.split('\0').filter(Boolean).sort() };
}

async function mergeInProgress(cwd: string): Promise<boolean> {
  return (await git(['rev-parse', '-q', '--verify', 'MERGE_HEAD'], { cwd, allowFailure: true })) !== '';
}

export interface UntrackedCopies {
  /** Untracked files identical to a version `branch` already committed: safe to let the merge replace. */
  redundant: string[];
  /** Untracked files the merge would overwrite that `branch` never had in that form. */
  blocking: string[];
}

/**
 * Untracked files in `cwd` that `branch` adds. The usual one is the task file
 * written in the main checkout and committed on the PRD branch when its
 * worktree was made: git refuses to merge over it, although the branch has it
 * (and a newer version). A file whose exact content appears in the branch's
 * history of that path is redundant; anything else would be lost.
 */
export async function untrackedCopiesOf(cwd: string, branch: string): Promise<UntrackedCopies> {
  const untracked = (await statusPorcelain(cwd)).filter((e) => e.code === '??').map((e) => e.path);
  const result: UntrackedCopies = { redundant: [], blocking: [] };
  if (untracked.length === 0) return result;
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
  for (const file of untracked.filter((f) => added.has(f))) {
    const blob = await git(['hash-object', '--', path.join(top, file)], { cwd });
    const versions = await git(
      [
        'log',
        '--format=',
        '--raw',
        '--no-abbrev',
        '--no-renames',
        `refs/heads/${branch}`,
        '--',
        `:(top,literal)${file}`,
      ],
      { cwd },
    );
    const known = versions.split('\n').some((line) => line.split(/\s+/)[3] === blob);
    (known ? result.redundant : result.blocking).push(file);
  }
  return result;
}

/**
 * Takes files out of the work tree, returning a function that puts them back
 * (used when a merge that was to replace them is aborted).
 */
export async function setAside(cwd: string, files: readonly string[]): Promise<() => Promise<void>> {
  const top = await git(['rev-parse', '--show-toplevel'], { cwd });
  const saved: { file: string; content: Buffer }[] = [];
  for (const file of files) {
    const full = path.join(top, file);
    saved.push({ file: full, content: await readFile(full) });
    await rm(full);
  }
  return async () => {
    for (const { file, content } of saved) {
      // An aborted merge removes the folders it had created.
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
    }
  };
}
