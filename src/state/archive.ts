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
  /** The task file and progress file in the main checkout; no task file for tasks kept elsewhere (GitHub issues). */
  taskPath: string | null;
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
 * ralph/>/` (the progress file as on disk too, as `progress.working-copy.md`,
 * when it differs from the old branch's copy, so no entry is ever dropped);
 * the progress file starts again, keeping its Codebase Patterns
 * (they describe the code, not the feature), and the run state starts fresh
 * (story ids such as US-001 repeat across features). The branch is then
 * remembered, exactly as written: a branch name is compared byte for byte.
 * Returns null when nothing was archived.
 */
export async function archiveIfBranchChanged(options: ArchiveOptions): Promise<ArchiveResult | null> {
  if (options.branch === null) return null;
  const marker = lastBranchPath(options.runDir);
  // Only the line break this file adds is removed.
  const previous = (await readTextOrNull(marker))?.replace(/\r?\n$/, '') ?? '';
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
  const write = async (name: string, text: string): Promise<void> => {
    const target = path.join(dir, name);
    await writeFileAtomic(target, text);
    files.push(target);
  };
  // On disk the task file is normally the new feature's; only the old branch's copy is worth keeping.
  const { taskPath } = options;
  const oldTask = taskPath === null ? null : ((await options.readPrevious?.(previous, taskPath)) ?? null);
  if (oldTask !== null && taskPath !== null) await write(path.basename(taskPath), oldTask);

  const progressName = path.basename(options.progressPath);
  const oldProgress = (await options.readPrevious?.(previous, options.progressPath)) ?? null;
  const onDisk = (await statOrNull(options.progressPath))?.isFile()
    ? await readTextOrNull(options.progressPath)
    : null;
  if (oldProgress !== null) await write(progressName, oldProgress);
  if (onDisk !== null && onDisk !== oldProgress) {
    const ext = path.extname(progressName);
    await write(
      oldProgress === null ? progressName : `${path.basename(progressName, ext)}.working-copy${ext}`,
      onDisk,
    );
  }
  if (onDisk !== null) {
    await writeFileAtomic(options.progressPath, addPatterns('', readCodebasePatterns(onDisk)));
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
