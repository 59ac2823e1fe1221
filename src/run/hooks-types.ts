import { z } from 'zod';

/**
 * What one iteration tells its hooks. Given to `run:` hooks as environment
 * variables of the same names and substituted into `prompt:` hooks.
 */
export interface HookVars {
  iteration: number;
  /** The run's name: the PRD name or the goal's run name. */
  runId: string;
  /** The iteration's raw agent stream (`.ralph/runs/<name>/iterations/<n>.jsonl`). */
  transcript: string;
  storyId?: string;
  stepId?: string;
  /** The task file (PRD mode) or the goal file, if any. */
  prd?: string;
}

export const HookTaskStatusSchema = z.enum(['running', 'completed', 'failed']);

/** One execution of one hook after one iteration (seed 004, `hook-tasks`). */
export const HookTaskRecordSchema = z.object({
  iteration: z.number().int().positive(),
  hookId: z.string().min(1),
  kind: z.enum(['run', 'prompt']),
  parallel: z.boolean(),
  status: HookTaskStatusSchema,
  spawnedAt: z.iso.datetime({ offset: true }),
  completedAt: z.iso.datetime({ offset: true }).optional(),
  /** The command's exit code, or the agent's; absent when it never ran or was killed by a signal. */
  exitCode: z.number().int().optional(),
  /** Its stdout and stderr (a `run:` hook) or raw agent stream (a `prompt:` hook). */
  outputFile: z.string().min(1),
  /** Why it failed, when that is not just a non-zero exit code. */
  error: z.string().optional(),
  /** The commits on the loop's branch holding what it wrote. */
  commits: z.array(z.string()).optional(),
  /** What it wrote did not land (it conflicted): the ref its commits are kept under. */
  keptAt: z.string().optional(),
});
export type HookTaskRecord = z.infer<typeof HookTaskRecordSchema>;
