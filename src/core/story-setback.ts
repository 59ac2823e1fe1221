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
export const StorySetbackSchema = z.object({
  version: z.literal(1),
  prd: z.string().min(1),
  storyId: z.string().min(1),
  /** Attempts used so far, across every job. */
  attempts: z.number().int().positive(),
  /** Out of retries: not planned again until someone removes the branch. */
  parked: z.boolean(),
  failure: z.object({
    kind: z.string().min(1),
    reason: z.string(),
    gateOutputTail: z.string().optional(),
  }),
  at: z.iso.datetime({ offset: true }),
});
export type StorySetback = z.infer<typeof StorySetbackSchema>;

const SUBJECT = /^ralph: .* failed$/;

export function formatSetbackMessage(setback: StorySetback): string {
  const valid = StorySetbackSchema.parse(setback);
  const id = valid.storyId.replace(/[\p{Cc}\s]+/gu, ' ').trim();
  return `ralph: ${id} failed\n\n${JSON.stringify(valid, null, 2)}\n`;
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
