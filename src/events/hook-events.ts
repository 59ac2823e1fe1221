/** The per-iteration hooks, in the story runners and in goal runs alike. */
import { z } from 'zod';

const hookRun = { iteration: z.number(), hookId: z.string(), parallel: z.boolean() };

export const HOOK_EVENTS = [
  /** What a hook wrote is on the loop's branch, in `commits` (between two iterations). */
  z.object({
    type: z.literal('hook-committed'),
    ...hookRun,
    commits: z.array(z.object({ sha: z.string(), subject: z.string() })),
  }),
  /** What a hook wrote could not be committed or brought onto the branch; `ref` keeps it when it could. */
  z.object({
    type: z.literal('hook-not-landed'),
    ...hookRun,
    reason: z.string(),
    ref: z.string().optional(),
  }),
  z.object({
    type: z.literal('hook-started'),
    ...hookRun,
    kind: z.enum(['run', 'prompt']),
    outputFile: z.string(),
  }),
  z.object({
    type: z.literal('hook-finished'),
    ...hookRun,
    kind: z.enum(['run', 'prompt']),
    status: z.enum(['completed', 'failed']),
    exitCode: z.number().nullable(),
    durationMs: z.number(),
    outputFile: z.string(),
    /** Why it failed: exit code, timeout, killed at exit, spawn error. */
    error: z.string().optional(),
  }),
] as const;
