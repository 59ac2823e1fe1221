/** Where a run works (worktree, branch, setup) and what happens when it is done (push, pull request). */
import { z } from 'zod';

export const WORKSPACE_EVENTS = [
  z.object({
    type: z.literal('worktree-created'),
    path: z.string(),
    branch: z.string(),
    base: z.string().nullable(),
    newBranch: z.boolean(),
  }),
  z.object({ type: z.literal('worktree-reused'), path: z.string(), branch: z.string() }),
  z.object({
    type: z.literal('branch-switched'),
    branch: z.string(),
    created: z.boolean(),
    base: z.string().nullable(),
  }),
  z.object({ type: z.literal('task-file-copied'), paths: z.array(z.string()), commit: z.string() }),
  /** The main checkout's edits to the task file, taken into the run's copy with the run's statuses. */
  z.object({
    type: z.literal('task-file-updated'),
    path: z.string(),
    added: z.array(z.string()),
    changed: z.array(z.string()),
    removed: z.array(z.string()),
    commit: z.string(),
  }),
  /** Worktree mode starts from the last commit: the main checkout's uncommitted changes are not in it. */
  z.object({ type: z.literal('uncommitted-left-out'), files: z.array(z.string()) }),
  z.object({ type: z.literal('setup-started'), command: z.string(), cwd: z.string() }),
  z.object({
    type: z.literal('setup-finished'),
    command: z.string(),
    exitCode: z.number(),
    durationMs: z.number(),
    outputTail: z.string(),
  }),
  z.object({
    type: z.literal('archived'),
    previousBranch: z.string(),
    dir: z.string(),
    files: z.array(z.string()),
  }),
] as const;

export const ON_COMPLETE_EVENTS = [
  z.object({ type: z.literal('push-started'), branch: z.string() }),
  z.object({ type: z.literal('pr-started'), branch: z.string(), base: z.string() }),
  z.object({ type: z.literal('branch-pushed'), branch: z.string(), remote: z.string() }),
  z.object({ type: z.literal('push-failed'), branch: z.string(), remote: z.string(), message: z.string() }),
  z.object({ type: z.literal('pr-created'), url: z.string(), existing: z.boolean() }),
  z.object({ type: z.literal('pr-failed'), message: z.string() }),
] as const;
