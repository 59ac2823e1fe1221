import { z } from 'zod';
import type { AttemptFailure } from './verdict.js';

/**
 * Why a story's shared branch holds no verdict but a setback: its attempts
 * failed (a worker used its retries, or the merge queue rejected verified
 * work: a conflict, or gates failing on the combined result). Stored, like a
 * verdict, as an empty commit on the story branch (subject `ralph: <id>
 * failed`, this JSON as the body), so jobs on other machines read it from
 * the branch alone: the next worker goes on counting attempts and shows the
 * failure in its prompt, and a `parked` story is planned no more.
 */
export const StorySetbackSchema = z
  .object({
    version: z.literal(1),
    prd: z.string().min(1),
    storyId: z.string().min(1),
    /** Attempts used so far, across every job (a requeue gives the one it drops back). */
    attempts: z.number().int().nonnegative(),
    /** Out of retries: not planned again until someone removes the branch. */
    parked: z.boolean(),
    /**
     * A requeue, not a failure: verified work the integrator could not bring onto the tip because
     * other stories landed first. The story is planned again, before others, with nothing counted.
     */
    requeued: z.boolean().optional(),
    /** Times it was requeued so far. */
    requeues: z.number().int().nonnegative().optional(),
    /** What its dropped work touched: stories hinted to touch the same files wait until it lands. */
    files: z.array(z.string()).optional(),
    failure: z.object({
      kind: z.string().min(1),
      reason: z.string(),
      gateOutputTail: z.string().optional(),
    }),
    at: z.iso.datetime({ offset: true }),
  })
  // A failure used an attempt; only a requeue, which gives the dropped one back, may leave none.
  .refine((s) => s.requeued === true || s.attempts > 0, {
    message: 'a setback that is not a requeue has used at least one attempt',
    path: ['attempts'],
  });
export type StorySetback = z.infer<typeof StorySetbackSchema>;

const SUBJECT = /^ralph: .* (failed|requeued)$/;

export function formatSetbackMessage(setback: StorySetback): string {
  const valid = StorySetbackSchema.parse(setback);
  const id = valid.storyId.replace(/[\p{Cc}\s]+/gu, ' ').trim();
  return `ralph: ${id} ${valid.requeued ? 'requeued' : 'failed'}\n\n${JSON.stringify(valid, null, 2)}\n`;
}

/** The setback a commit message holds, or null when it is not a (valid) setback. */
export function parseSetbackMessage(message: string): StorySetback | null {
  const newline = message.indexOf('\n');
  const subject = newline < 0 ? message : message.slice(0, newline);
  if (newline < 0 || !SUBJECT.test(subject.trim())) return null;
  try {
    const parsed = StorySetbackSchema.safeParse(JSON.parse(message.slice(newline + 1)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The setback for a story whose last attempt failed with `failure`. */
export function setbackFor(
  of: { prd: string; storyId: string; attempts: number; parked: boolean; at: Date },
  failure: AttemptFailure,
): StorySetback {
  return {
    version: 1,
    prd: of.prd,
    storyId: of.storyId,
    attempts: of.attempts,
    parked: of.parked,
    failure: {
      kind: failure.kind,
      reason: failure.reason,
      ...(failure.gateOutputTail ? { gateOutputTail: failure.gateOutputTail } : {}),
    },
    at: of.at.toISOString(),
  };
}
