import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { InvalidInputError } from '../core/errors.js';
import type { Prd } from '../core/types.js';
import type { ValidationIssue } from '../core/validation-issue.js';
import { git } from '../git/git.js';
import { mainCopyIsNews } from '../git/known-version.js';
import type { PullRequestHost } from '../run/on-complete.js';
import { readPrd } from '../sources/load-task-source.js';
import { type MainEdits, mainEditsOf, withRunStatuses } from '../sources/main-edits.js';
import type { ReadResult, TaskSource } from '../sources/task-source.js';
import { worktreeDir } from '../state/layout.js';
import { findProjectRoot } from '../state/project-root.js';
import { type ResolvedTarget, resolveTarget } from '../state/resolve-target.js';

export interface TaskContext {
  root: string;
  target: ResolvedTarget;
  /** The task file actually read: the worktree's live copy while a PRD runs there. */
  livePath: string;
  prd: Prd;
  /** Tasks kept outside the checkout (GitHub issues): the source every command of the run uses as it is. */
  source?: TaskSource;
  /** Where `--pr` opens the pull request, when not with `gh` (the issues' repository). */
  pullRequests?: PullRequestHost;
}

/**
 * Resolves a target and reads its task file, turning validation issues into
 * an exit-2 error; the reader's warnings go to `warn`.
 */
export async function readTaskContext(
  target: string | undefined,
  warn: (warning: ValidationIssue) => void,
  cwd = process.cwd(),
  /** The project root, when the caller has found it already. */
  knownRoot?: string,
): Promise<TaskContext> {
  const root = knownRoot ?? (await findProjectRoot(cwd));
  const resolved = await resolveTarget(root, target);
  const livePath = liveTaskPath(root, resolved);
  const result = await readPrd(livePath);
  if (!result.ok) {
    throw new InvalidInputError(
      `${relative(cwd, livePath) || livePath} is not a valid task file`,
      result.issues,
    );
  }
  for (const warning of result.warnings) warn(warning);
  return { root, target: resolved, livePath, prd: result.prd };
}

/**
 * While a PRD runs in its worktree, the worktree's copy of the task file is the
 * one being committed, so progress is read from there.
 */
export function liveTaskPath(root: string, target: ResolvedTarget): string {
  const inRoot = relative(root, target.taskPath);
  if (inRoot.startsWith('..')) return target.taskPath;
  const candidate = join(root, '.ralph', 'worktrees', target.name, inRoot);
  return existsSync(candidate) ? candidate : target.taskPath;
}

/** Where a target's run works from: the fields every workspace of it starts with. */
export function workspaceTarget(ctx: TaskContext) {
  return {
    root: ctx.root,
    name: ctx.target.name,
    prd: ctx.prd,
    taskPath: ctx.target.taskPath,
    progressPath: ctx.target.progressPath,
    runDir: ctx.target.runDir,
    ...(ctx.source ? { source: ctx.source } : {}),
  };
}

/** The PRD as the next run will read it, and the main checkout's edits it will take to get there. */
export interface NextRunReading {
  prd: Prd;
  /** Stories edited in the main checkout that the run's copy does not have yet; null when there are none. */
  mainEdits: MainEdits | null;
}

/**
 * A worktree run reads its own copy of the task file, and takes the main
 * checkout's edits into it when it starts (workspace.ts, takeMainEdits). A
 * read-only command shows what that run will read: the main checkout's
 * stories with the run's statuses, reading both files and writing nothing.
 * A main copy that does not read is left to `ralph validate` and the run
 * (which refuses it with its line): the run's copy is shown as it is.
 */
export async function nextRunReading(
  root: string,
  target: ResolvedTarget,
  livePath: string,
  live: Prd,
): Promise<NextRunReading> {
  const asItIs = { prd: live, mainEdits: null };
  if (livePath === target.taskPath) return asItIs;
  const worktree = worktreeDir(root, target.name);
  const news = await git(['rev-parse', 'HEAD'], { cwd: worktree })
    .then((head) => mainCopyIsNews(root, head, target.taskPath, livePath))
    .catch(() => false);
  if (!news) return asItIs;
  const main = await readPrd(target.taskPath);
  if (!main.ok) return asItIs;
  const mainEdits = mainEditsOf(main.prd, live);
  const edited = mainEdits.added.length + mainEdits.changed.length + mainEdits.removed.length;
  return { prd: withRunStatuses(main.prd, live), mainEdits: edited > 0 ? mainEdits : null };
}

/** A target's task file as the next run will read it (see `nextRunReading`), for list-like views. */
export async function readForNextRun(root: string, target: ResolvedTarget): Promise<ReadResult> {
  const livePath = liveTaskPath(root, target);
  const read = await readPrd(livePath);
  if (!read.ok) return read;
  return { ...read, prd: (await nextRunReading(root, target, livePath, read.prd)).prd };
}
