import { dirname, relative } from 'node:path';
import { isTemporaryFile } from '../core/temporary-files.js';
import { taskFileOf } from '../sources/task-source.js';
import { removeStaleTemporaries } from '../state/atomic.js';
import { statOrNull } from '../state/fs-util.js';
import { ralphDir } from '../state/layout.js';
import type { RunContext } from './run-context.js';

/** The tracked files the tool owns: the task file (or spec directory) and the progress file. */
export function toolPaths(ctx: Pick<RunContext, 'cwd' | 'source' | 'progressPath'>): string[] {
  // A remote source (GitHub issues) has no file here, only the progress file.
  const taskFile = taskFileOf(ctx.source);
  // A spec directory that is the work tree itself would make every file the tool's: it is left out.
  return [
    ...(taskFile === null ? [] : [relative(ctx.cwd, taskFile)]),
    relative(ctx.cwd, ctx.progressPath),
  ].filter((p) => p !== '');
}

type ToolContext = Pick<RunContext, 'cwd' | 'source' | 'progressPath'>;

const isOwned = (ctx: ToolContext, path: string): boolean =>
  toolPaths(ctx).some((p) => path === p || path.startsWith(`${p}/`));

/**
 * Files the tool itself writes (and its temporaries, wherever a killed run
 * left one); the agent's edits to them are undone, not counted as its work.
 */
export function isToolFile(ctx: ToolContext, path: string): boolean {
  return isOwned(ctx, path) || path.startsWith('.ralph/') || isTemporaryFile(path);
}

/** The project's own ralph files that belong in git beside the task file. */
const COMMITTED_RALPH_FILES = ['.ralph/.gitignore', '.ralph/config.yaml'];

/**
 * The tool files ralph commits for the user when a run starts: this run's
 * task and progress files and the project's ralph config, never a temporary
 * file nor another PRD's files.
 */
export function isCommittedToolFile(ctx: ToolContext, path: string): boolean {
  return !isTemporaryFile(path) && (isOwned(ctx, path) || COMMITTED_RALPH_FILES.includes(path));
}

/** Removes what runs killed inside an atomic write left beside the files this run writes. */
export async function removeToolTemporaries(ctx: ToolContext & Pick<RunContext, 'files'>): Promise<void> {
  const taskFile = taskFileOf(ctx.source);
  const specDir = taskFile !== null && ((await statOrNull(taskFile))?.isDirectory() ?? false);
  // A spec directory that is the work tree itself is not walked: only ralph's own folders are.
  if (specDir && taskFile !== null && relative(ctx.cwd, taskFile) !== '') {
    await removeStaleTemporaries(taskFile, { recursive: true });
  }
  const dirs = [
    specDir || taskFile === null ? null : dirname(taskFile),
    dirname(ctx.progressPath),
    ctx.files.dir,
    ralphDir(ctx.cwd),
  ];
  for (const dir of new Set(dirs)) if (dir !== null) await removeStaleTemporaries(dir);
}
