import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { git, runGit } from './git.js';
import { canonicalPath } from './worktree.js';

/**
 * The blobs `ref`'s history committed at `file` (a path from the top of the
 * work tree): every version the branch ever had there, oldest to newest.
 */
export async function versionsOnBranch(cwd: string, ref: string, file: string): Promise<Set<string>> {
  const log = await git(
    ['log', '--format=', '--raw', '--no-abbrev', '--no-renames', ref, '--', `:(top,literal)${file}`],
    { cwd },
  );
  return new Set(
    log
      .split('\n')
      .map((line) => line.split(/\s+/)[3])
      .filter((blob): blob is string => blob !== undefined && !/^0+$/.test(blob)),
  );
}

/** The blob of `rev:file` (a path from the top), or null when `rev` has no file there. */
export async function blobAt(cwd: string, rev: string, file: string): Promise<string | null> {
  const result = await runGit(['rev-parse', '-q', '--verify', `${rev}:${file}`], { cwd, allowFailure: true });
  return result.exitCode === 0 ? result.stdout.trim() : null;
}

/** The blob git would store for the file at `absolutePath`, as it is on disk. */
export async function blobOfFile(cwd: string, absolutePath: string): Promise<string> {
  return git(['hash-object', '--', absolutePath], { cwd });
}

/** Whether the file at `absolutePath`, as it is on disk, is a version `ref`'s history committed at that path. */
export async function onBranchAsIs(cwd: string, ref: string, absolutePath: string): Promise<boolean> {
  const top = canonicalPath(await git(['rev-parse', '--show-toplevel'], { cwd }));
  const rel = path.relative(top, canonicalPath(absolutePath)).split(path.sep).join('/');
  return (await versionsOnBranch(cwd, ref, rel)).has(await blobOfFile(cwd, absolutePath));
}

/**
 * Whether the main checkout's copy of a task file holds edits `ref` has not
 * seen: both files exist, they differ, and the main copy is no version
 * `ref`'s history committed (neither the copy the branch took nor one merged
 * back). Such edits are what the next run takes into its own copy.
 */
export async function mainCopyIsNews(
  root: string,
  ref: string,
  mainFile: string,
  liveFile: string,
): Promise<boolean> {
  if (mainFile === liveFile || !isFile(mainFile) || !isFile(liveFile)) return false;
  if ((await readFile(mainFile)).equals(await readFile(liveFile))) return false;
  return !(await onBranchAsIs(root, ref, mainFile));
}

const isFile = (file: string): boolean => statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
