/** A run's life: started, its iterations begun, steered, stopped, recovered, finished. */
import { z } from 'zod';
import { GOAL_MODES } from '../core/goal-types.js';

/** Why a run ended. A story run ends with the first eight, a goal run with those it shares and the last three. */
export const STOP_REASONS = [
  'all-done',
  'blocked',
  'max-iterations',
  'max-cost',
  'interrupted',
  'story-not-found',
  'agent-unusable',
  // Only stories waiting for answers (and stories that depend on them) are left.
  'questions',
  /** An API outage lasted longer than `--outage-wait`. */
  'outage-wait',
  'goal-complete',
  'needs-human',
  'failures',
] as const;
export type AnyStopReason = (typeof STOP_REASONS)[number];
export type StopReason = Exclude<AnyStopReason, 'goal-complete' | 'needs-human' | 'failures'>;
export type GoalStopReason = Extract<
  AnyStopReason,
  | 'goal-complete'
  | 'needs-human'
  | 'failures'
  | 'max-iterations'
  | 'max-cost'
  | 'interrupted'
  | 'agent-unusable'
  | 'outage-wait'
>;

const stepCounts = z.object({ total: z.number(), completed: z.number() });

export const RunStartedSchema = z.object({
  type: z.literal('run-started'),
  name: z.string(),
  /** The PRD's project, or a goal's first line. */
  project: z.string(),
  agent: z.string(),
  cwd: z.string(),
  /** How many iterations this session may start. */
  maxIterations: z.number(),
  /** The number of the last one, counting on from earlier sessions' iterations: the `N/last` of each iteration. */
  lastIteration: z.number().optional(),
  /** Stories (or a goal's steps) not done yet. */
  remaining: z.number(),
  resumed: z.boolean(),
  /** The whole task file's tally as the run starts, and what earlier sessions spent: a follower's starting point. */
  passed: z.number().optional(),
  total: z.number().optional(),
  costUsd: z.number().optional(),
  /** The sandbox every agent, gate and hook of the run starts in (`bwrap`, `sandbox-exec`); absent when none. */
  sandbox: z.string().optional(),
  /** A goal run's own start. */
  goal: z
    .object({
      text: z.string(),
      /** Iterations already run by earlier sessions. */
      iterationsBefore: z.number(),
      minIterations: z.number(),
      idleThreshold: z.number(),
      steps: stepCounts,
    })
    .optional(),
});

export const IterationStartedSchema = z.object({
  type: z.literal('iteration-started'),
  iteration: z.number(),
  maxIterations: z.number(),
  headBefore: z.string(),
  /** A story attempt: the story, and which of its attempts this is. */
  storyId: z.string().optional(),
  title: z.string().optional(),
  attempt: z.number().optional(),
  maxAttempts: z.number().optional(),
  /** A goal iteration: what it is asked to do, and the step it executes. */
  mode: z.enum(GOAL_MODES).optional(),
  step: z.object({ id: z.string(), prompt: z.string() }).optional(),
  /** The agent that runs it (its stream is read back with that agent's parser). */
  agent: z.string().optional(),
  /**
   * The last iteration number this session may reach: `iteration` of
   * `lastIteration` is how every view counts (the iteration numbers go on
   * over every session of a run and name `iterations/<n>.jsonl`).
   */
  lastIteration: z.number().optional(),
});

export const LockTakenOverSchema = z.object({
  type: z.literal('lock-taken-over'),
  previousPid: z.number(),
  host: z.string(),
  startedAt: z.string(),
  /** The holder was gone, its pid now runs another program, or `--force` took a lock that looked live. */
  reason: z.enum(['not-running', 'pid-reused', 'unreadable', 'forced']),
});

export const RecoveredSchema = z.object({
  type: z.literal('recovered'),
  /** A story run's story; a goal run names the iteration instead. */
  storyId: z.string().optional(),
  iteration: z.number().optional(),
  /** What the rolled-back work was reset to. */
  to: z.string().optional(),
  /** Parallel runs: `kept-verified` verified work left to land; `integration-reset` an unfinished landing undone; `cleaned` a finished story's worktree and branch removed. */
  action: z.enum(['rolled-back', 'completed-record', 'kept-verified', 'integration-reset', 'cleaned']),
});

export const ChangesStashedSchema = z.object({
  type: z.literal('changes-stashed'),
  sha: z.string(),
  message: z.string(),
  files: z.array(z.string()),
});

export const StopRequestedSchema = z.object({
  type: z.literal('stop-requested'),
  how: z.enum(['graceful', 'immediate']),
  /** Who asked, when not this process's keys: a control request (`web page`). */
  from: z.string().optional(),
});

export const MaxIterationsChangedSchema = z.object({
  type: z.literal('max-iterations-changed'),
  maxIterations: z.number(),
});

export const RunFinishedSchema = z.object({
  type: z.literal('run-finished'),
  exitCode: z.number(),
  reason: z.enum(STOP_REASONS),
  message: z.string(),
  /** Stories passed (a goal run: steps completed) out of `total`. */
  passed: z.number(),
  total: z.number(),
  parked: z.array(z.string()),
  costUsd: z.number(),
  /** Iterations run in this session. */
  iterations: z.number(),
  /** Iterations of every session of the run, as `ralph status` counts them. */
  iterationsInAll: z.number().optional(),
  /** Questions still waiting for an answer, each with the command that answers it. */
  questions: z
    .array(
      z.object({ id: z.string(), storyId: z.string().optional(), question: z.string(), command: z.string() }),
    )
    .optional(),
  /** A goal run's own ending. */
  goal: z
    .object({
      finalSummary: z.string().optional(),
      humanNeeded: z.object({ reason: z.string(), details: z.string() }).optional(),
      progressFile: z.string(),
    })
    .optional(),
});

/**
 * The run waits on the world outside, not on the agent's work: an API
 * outage, a rate or usage limit, or a question only a person can answer.
 * `until` when the wait has an end (ISO 8601).
 */
export const WaitingSchema = z.object({
  type: z.literal('waiting'),
  reason: z.enum(['outage', 'rate-limit', 'quota', 'question']),
  message: z.string(),
  until: z.string().optional(),
  waitMs: z.number().optional(),
  agent: z.string().optional(),
  storyId: z.string().optional(),
});

/** The agent cannot authenticate or cannot be started: the run stops at once (exit 4), nothing counted or parked. */
export const AgentUnusableSchema = z.object({
  type: z.literal('agent-unusable'),
  agent: z.string(),
  kind: z.enum(['auth', 'not-startable']),
  message: z.string(),
  /** One sentence: how to fix it (log in, install it, `--agent-path`). */
  fix: z.string(),
});

/** The agent asked a person (`<ralph>ASK <id>: …</ralph>`); its story waits for the answer. */
export const QuestionAskedSchema = z.object({
  type: z.literal('question-asked'),
  iteration: z.number(),
  storyId: z.string().optional(),
  questionId: z.string(),
  question: z.string(),
  /** When the answer store recorded the question: with `questionId`, the key an answer names (`answers.jsonl`). */
  askedAt: z.string().optional(),
});

export const QuestionAnsweredSchema = z.object({
  type: z.literal('question-answered'),
  storyId: z.string().optional(),
  questionId: z.string(),
  answer: z.string(),
});

/** A webhook could not be told (after its retries); said once per webhook, its address without its secret parts. */
export const WebhookFailedSchema = z.object({
  type: z.literal('webhook-failed'),
  webhook: z.string(),
  event: z.string(),
  error: z.string(),
  tries: z.number(),
});

export const LIFECYCLE_EVENTS = [
  RunStartedSchema,
  IterationStartedSchema,
  LockTakenOverSchema,
  RecoveredSchema,
  ChangesStashedSchema,
  StopRequestedSchema,
  MaxIterationsChangedSchema,
  RunFinishedSchema,
  WaitingSchema,
  AgentUnusableSchema,
  QuestionAskedSchema,
  QuestionAnsweredSchema,
  WebhookFailedSchema,
] as const;
