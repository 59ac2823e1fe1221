/** One attempt, as the runners report the kernel's steps and their verdict on it. */
import { z } from 'zod';
import { AgentEventSchema } from '../agents/agent-event.js';
import type { Forecast } from '../core/forecast.js';
import { GOAL_FAILURE_KINDS } from '../core/goal-shape.js';
import { FAILURE_KINDS } from '../core/verdict.js';

const commit = z.object({ sha: z.string(), subject: z.string() });

/** What the agent said or did; a story attempt names its story (a goal iteration does not). */
export const AgentEventEventSchema = z.object({
  type: z.literal('agent-event'),
  iteration: z.number(),
  storyId: z.string().optional(),
  event: AgentEventSchema,
});

export const AgentExitedSchema = z.object({
  type: z.literal('agent-exited'),
  iteration: z.number(),
  stopReason: z.string(),
  exitCode: z.number().nullable(),
  durationMs: z.number(),
  stderrTail: z.string(),
});

export const SignalSchema = z.object({
  type: z.literal('signal'),
  iteration: z.number(),
  storyId: z.string(),
  signal: z.enum(['done', 'fail', 'learn']),
  detail: z.string(),
});

export const CheckStartedSchema = z.object({
  type: z.literal('check-started'),
  iteration: z.number(),
  command: z.string(),
});

export const CheckFinishedSchema = z.object({
  type: z.literal('check-finished'),
  iteration: z.number(),
  command: z.string(),
  exitCode: z.number(),
  durationMs: z.number(),
  /** The last lines of combined stdout/stderr. */
  outputTail: z.string(),
});

/** An attempt's spend, once its agent has stopped. */
export const UsageSchema = z.object({
  type: z.literal('usage'),
  iteration: z.number(),
  storyId: z.string().optional(),
  costUsd: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
});

const spread = z.object({ estimate: z.number(), low: z.number(), high: z.number() });

/** What the rest of the run will take at its pace so far (`core/forecast.ts`). */
export const ForecastSchema = z.object({
  storiesLeft: z.number(),
  basedOn: z.number(),
  ms: spread,
  costUsd: spread.nullable(),
  lanes: z.number(),
}) satisfies z.ZodType<Forecast>;

export const StoryPassedSchema = z.object({
  type: z.literal('story-passed'),
  iteration: z.number(),
  storyId: z.string(),
  title: z.string(),
  attempt: z.number(),
  commits: z.array(commit),
  costUsd: z.number(),
  durationMs: z.number(),
  /** The rest of the run at its pace so far; absent when nothing is left. */
  forecast: ForecastSchema.optional(),
  /** Parallel runs: landed once its work was brought onto a tip that moved meanwhile (see `resolution-finished`). */
  afterResolution: z.boolean().optional(),
});

/**
 * An attempt that did not pass. A story's names it and counts its attempts;
 * a goal iteration's counts the failures in a row (`attempt` of `maxAttempts`).
 */
export const AttemptFailedSchema = z.object({
  type: z.literal('attempt-failed'),
  iteration: z.number(),
  storyId: z.string().optional(),
  attempt: z.number(),
  maxAttempts: z.number(),
  kind: z.enum([...FAILURE_KINDS, ...GOAL_FAILURE_KINDS]),
  reason: z.string(),
  willRetry: z.boolean(),
  /** How long the attempt ran (agent and gates): it counts toward the story's time. */
  durationMs: z.number().optional(),
});

export const RolledBackSchema = z.object({
  type: z.literal('rolled-back'),
  storyId: z.string().optional(),
  /** A goal run's rolled-back iteration. */
  iteration: z.number().optional(),
  to: z.string(),
  rescueRef: z.string().optional(),
});

export const StoryParkedSchema = z.object({
  type: z.literal('story-parked'),
  storyId: z.string(),
  attempts: z.number(),
  reason: z.string(),
});

export const TaskFileRestoredSchema = z.object({
  type: z.literal('task-file-restored'),
  storyId: z.string(),
  path: z.string(),
});

/** Something an attempt did outside its work was undone (a ref, `.ralph/`, a link where ralph writes). */
export const AttemptUndoneSchema = z.object({
  type: z.literal('attempt-undone'),
  iteration: z.number(),
  storyId: z.string().optional(),
  what: z.string(),
});

/** The attempt was given back uncounted: the run waits, or switches agents. */
export const RateLimitedSchema = z.object({
  type: z.literal('rate-limited'),
  iteration: z.number(),
  storyId: z.string().optional(),
  waitMs: z.number(),
  resetsAt: z.string().optional(),
  message: z.string(),
});

/** The agent has said nothing for a while (a heartbeat while it is silent). */
export const AgentSilentSchema = z.object({
  type: z.literal('agent-silent'),
  iteration: z.number(),
  storyId: z.string().optional(),
  agent: z.string(),
  silentMs: z.number(),
  attempt: z.number().optional(),
  /** How long the attempt has run. */
  elapsedMs: z.number(),
});

export const AgentSwitchedSchema = z.object({
  type: z.literal('agent-switched'),
  from: z.string(),
  to: z.string(),
  reason: z.string(),
});

export const ATTEMPT_EVENTS = [
  AgentEventEventSchema,
  AgentExitedSchema,
  SignalSchema,
  CheckStartedSchema,
  CheckFinishedSchema,
  UsageSchema,
  StoryPassedSchema,
  AttemptFailedSchema,
  RolledBackSchema,
  StoryParkedSchema,
  TaskFileRestoredSchema,
  AttemptUndoneSchema,
  RateLimitedSchema,
  AgentSilentSchema,
  AgentSwitchedSchema,
] as const;
