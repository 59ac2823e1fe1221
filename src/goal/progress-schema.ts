/**
 * The state of one goal run, shaped like seed 004's PROGRESS.yaml. It is the
 * run's only state file: validated on read, written atomically, and read
 * back to resume a run that was stopped or killed.
 */
import { z } from 'zod';
import { HookTaskRecordSchema } from '../run/hooks-types.js';

const Timestamp = z.iso.datetime({ offset: true });
const Count = z.number().int().nonnegative();
const Iteration = z.number().int().positive();
const Mode = z.enum(['planning', 'executing', 'reflecting']);

export const GoalStepSchema = z.object({
  id: z.string().min(1),
  prompt: z.string().min(1),
  status: z.enum(['pending', 'completed']),
  addedAt: Timestamp,
  addedInIteration: Count,
  completedAt: Timestamp.optional(),
  completedInIteration: Iteration.optional(),
});

export const IterationRecordSchema = z.object({
  iteration: Iteration,
  mode: Mode,
  stepId: z.string().optional(),
  outcome: z.enum(['continue', 'goal-complete', 'needs-human', 'refused', 'failed']),
  summary: z.string(),
  at: Timestamp,
  /** The agent's time and spend in this iteration (absent in runs recorded before they were kept). */
  durationMs: Count.optional(),
  costUsd: z.number().nonnegative().optional(),
  inputTokens: Count.optional(),
  outputTokens: Count.optional(),
});

export const GoalFeedbackSchema = z.object({
  iteration: Iteration,
  kind: z.enum(['failed', 'refused', 'warning']),
  message: z.string(),
  outputTail: z.string().optional(),
});

/** The iteration in flight. Non-null on load means the last run died mid-iteration. */
export const GoalCurrentSchema = z.object({
  iteration: Iteration,
  headBefore: z.string().regex(/^[0-9a-f]{7,64}$/, 'expected a git commit sha'),
  startedAt: Timestamp,
  agentPid: z.number().int().positive().optional(),
  /** `RALPH_ATTEMPT` in the agent's environment, recorded before the spawn. */
  agentToken: z.string().min(1).optional(),
  /** What the iteration is doing, for `ralph status` and the TUI. */
  mode: Mode.optional(),
  stepId: z.string().optional(),
  /** The checkout it runs in: a resumed run rolls back there, wherever it runs now. */
  cwd: z.string().optional(),
});

export const GoalProgressSchema = z.object({
  version: z.literal(1),
  name: z.string().min(1),
  status: z.enum(['in-progress', 'goal-complete', 'needs-human', 'stopped']),
  mode: z.literal('ralph'),
  goal: z.string().min(1),
  successCriteria: z.array(z.string()).default(() => []),
  /** The SPRINT.yaml the goal came from, relative to the repository root. */
  goalFile: z.string().optional(),
  ralph: z.object({ idleThreshold: Iteration, minIterations: Count }),
  dynamicSteps: z.array(GoalStepSchema),
  hookTasks: z.array(HookTaskRecordSchema).default(() => []),
  /** Every iteration's outcome and summary, oldest first: the run's memory. */
  iterations: z.array(IterationRecordSchema).default(() => []),
  /** Told to the next iteration, then cleared. */
  feedback: GoalFeedbackSchema.nullable(),
  idleStreak: Count,
  consecutiveFailures: Count,
  current: GoalCurrentSchema.nullable(),
  humanNeeded: z
    .object({ reason: z.string(), details: z.string(), iteration: Iteration, at: Timestamp })
    .nullable(),
  ralphExit: z.object({
    detectedAt: Timestamp.nullable(),
    iteration: Iteration.nullable(),
    finalSummary: z.string().nullable(),
  }),
  /** Why the last session ended; null while one runs. */
  stop: z.object({ reason: z.string(), exitCode: z.number().int(), at: Timestamp }).nullable(),
  stats: z.object({
    startedAt: Timestamp,
    updatedAt: Timestamp,
    /** The last iteration started; iteration n's agent stream is `iterations/<n>.jsonl`. */
    currentIteration: Count,
    /** The last iteration this session may start. */
    maxIterations: Count,
    costUsd: z.number().nonnegative(),
    inputTokens: Count,
    outputTokens: Count,
  }),
});
export type GoalProgress = z.infer<typeof GoalProgressSchema>;
export type GoalStatus = GoalProgress['status'];
