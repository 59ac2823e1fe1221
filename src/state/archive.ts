import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { readTextOrNull, statOrNull } from './fs-util.js';
import { archiveEntryDir, runFiles, sanitizeName } from './layout.js';
import { addPatterns, readCodebasePatterns } from './progress.js';

export interface ArchiveOptions {
  root: string;
  /** The run name; the last branch is remembered per run (`.ralph/runs/<name>/last-branch`). */
  name: string;
  /** The branch this run works on; null (detached, no branch) skips the check. */
  branch: string | null;
  /** The task file and progress file in the main checkout. */
  taskPath: string;
  progressPath: string;
  /** `.ralph/runs/<name>/` */
  runDir: string;
  now?: Date;
  /**
   * A file's content as committed on the previous branch, when that is known
   * (e.g. `fileAtRevision`): the task file on disk is usually the new feature's
   * already, and in worktree mode the old progress lived on the old branch.
   */
  readPrevious?: (branch: string, file: string) => Promise<string | null>;
}

export interface ArchiveResult {
  previousBranch: string;
  dir: string;
  /** What was written to the archive folder. */
  files: string[];
}

export const lastBranchPath = (runDir: string): string => path.join(runDir, 'last-branch');

/**
 * snarktank's rule: a run whose branch differs from the last run's (of the
 * same task) is a new feature. The previous feature's task file, progress
 * file and run state go to `.ralph/archive/YYYY-MM-DD-<old branch minus
 * ralph/>/`; the progress file starts again, keeping its Codebase Patterns
 * (they describe the code, not the feature), and the run state starts fresh
 * (story ids such as US-001 repeat across features). The branch is then
 * remembered. Returns null when nothing was archived.
 */
export async function archiveIfBranchChanged(options: ArchiveOptions): Promise<ArchiveResult | null> {
  if (options.branch === null) return null;
  const marker = lastBranchPath(options.runDir);
  const previous = (await readTextOrNull(marker))?.trim() ?? '';
  let result: ArchiveResult | null = null;
  if (previous !== '' && previous !== options.branch) result = await archive(options, previous);
  await writeFileAtomic(marker, `${options.branch}\n`);
  return result;
}

async function archive(options: ArchiveOptions, previous: string): Promise<ArchiveResult> {
  const dir = await freeDir(
    archiveEntryDir(options.root, options.now ?? new Date(), sanitizeName(previous.replace(/^ralph\//, ''))),
  );
  const files: string[] = [];
  const keep = async (source: string, fallbackToDisk: boolean): Promise<string | null> => {
    const old = (await options.readPrevious?.(previous, source)) ?? null;
    const onDisk =
      fallbackToDisk && (await statOrNull(source))?.isFile() ? await readTextOrNull(source) : null;
    const text = old ?? onDisk;
    if (text === null) return null;
    const target = path.join(dir, path.basename(source));
    await writeFileAtomic(target, text);
    files.push(target);
    return text;
  };
  // On disk the task file is normally the new feature's; only the old branch's copy is worth keeping.
  await keep(options.taskPath, false);
  const progress = await keep(options.progressPath, true);
  if (progress !== null && existsSync(options.progressPath)) {
    const patterns = readCodebasePatterns((await readTextOrNull(options.progressPath)) ?? '');
    await writeFileAtomic(options.progressPath, addPatterns('', patterns));
  }
  const state = runFiles(options.runDir).state;
  if (existsSync(state)) {
    await mkdir(dir, { recursive: true });
    const target = path.join(dir, 'state.json');
    await rename(state, target);
    files.push(target);
  }
  return { previousBranch: previous, dir, files };
}

/** The archive folder, with `-2`, `-3`... when the same feature was archived earlier that day. */
async function freeDir(dir: string): Promise<string> {
  let candidate = dir;
  for (let n = 2; existsSync(candidate); n++) candidate = `${dir}-${n}`;
  return candidate;
}
