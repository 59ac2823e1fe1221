import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { InvalidInputError } from '../core/errors.js';
import type { Prd } from '../core/types.js';
import type { ValidationIssue } from '../core/validation-issue.js';
import type { PullRequestHost } from '../run/on-complete.js';
import { readPrd } from '../sources/load-task-source.js';
import type { TaskSource } from '../sources/task-source.js';
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
