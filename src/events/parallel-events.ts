/** What only runs that land stories do: stories verified on their own branch, then landed one at a time. */
import { z } from 'zod';
import { StoryVerdictSchema } from '../core/story-verdict.js';

export const PARALLEL_EVENTS = [
  z.object({ type: z.literal('parallel-started'), workers: z.number(), prdBranch: z.string() }),
  z.object({
    type: z.literal('story-verified'),
    storyId: z.string(),
    attempt: z.number(),
    branch: z.string(),
    commits: z.number(),
  }),
  z.object({
    type: z.literal('integration-started'),
    storyId: z.string(),
    onto: z.string(),
    queued: z.number(),
  }),
  z.object({
    type: z.literal('integration-failed'),
    storyId: z.string(),
    kind: z.enum(['conflict', 'check-failed']),
    files: z.array(z.string()),
    landedMeanwhile: z.array(z.string()),
    /**
     * What happens to the story: a race (the PRD branch moved on since its attempt started) is
     * resolved, never counted; on the tip it started from, the failure is its own and it is retried.
     */
    next: z.enum(['resolve', 'retry']).optional(),
  }),
  /** A story that lost a race waits to land: its agent brings its work onto the new tip (`worker: "merge"`). */
  z.object({
    type: z.literal('resolution-started'),
    storyId: z.string(),
    iteration: z.number(),
    kind: z.enum(['conflict', 'check-failed']),
    files: z.array(z.string()),
    landedMeanwhile: z.array(z.string()),
    agent: z.string(),
  }),
  z.object({
    type: z.literal('resolution-finished'),
    storyId: z.string(),
    resolved: z.boolean(),
    /** False when git itself combined the work (no agent ran). */
    byAgent: z.boolean(),
    reason: z.string().optional(),
  }),
  /** A race the resolution could not settle: the story is redone from the new tip, not counted as a failed attempt. */
  z.object({
    type: z.literal('story-requeued'),
    storyId: z.string(),
    requeues: z.number(),
    maxRequeues: z.number(),
    reason: z.string(),
  }),
] as const;

/** The last event of a role job (`ralph run --worker`, `ralph integrate`): what became of its work. */
export const ROLE_EVENTS = [
  z.object({
    type: z.literal('worker-finished'),
    storyId: z.string(),
    kind: z.enum([
      'verified',
      'already-verified',
      'already-landed',
      'not-ready',
      'parked',
      'rate-limited',
      'aborted',
      // The agent asked a person; `reason` is the question.
      'asked',
      /** The agent cannot authenticate or cannot be started (exit 4). */
      'agent-unusable',
      /** The agent's API stayed out past --outage-wait (exit 3). */
      'outage',
    ]),
    branch: z.string().optional(),
    verdict: StoryVerdictSchema.optional(),
    attempts: z.number().optional(),
    reason: z.string().optional(),
  }),
  z.object({
    type: z.literal('integrate-finished'),
    /** Landed by this run, in order. */
    landed: z.array(z.string()),
    /** Verified work the PRD branch could not take (conflict, gates): sent back to be worked again. */
    rejected: z.array(z.string()),
    /** Stopped by an interrupt before the queue was empty. */
    aborted: z.boolean(),
    /** After this run: stories not landed, and what a next round would do. */
    remaining: z.number(),
    next: z.enum(['pull-request', 'dispatch', 'stop']),
  }),
] as const;
