import { z } from 'zod';

const Sha = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, 'expected a full git commit sha');
const Count = z.number().int().nonnegative();

/**
 * A worker's machine-readable verdict: the story passed verification in its
 * own checkout. It is stored in git as an empty commit on top of the story's
 * work (subject `ralph: <id> verified`, this JSON as the body), so the story
 * branch and its verdict are one ref: pushed, fetched and deleted together,
 * and a story branch whose tip is not a verdict is unfinished work.
 */
export const StoryVerdictSchema = z.object({
  version: z.literal(1),
  prd: z.string().min(1),
  storyId: z.string().min(1),
  /** The story's attempt number that passed. */
  attempt: z.number().int().positive(),
  /** The PRD branch commit the attempt started from. */
  base: Sha,
  /** The last commit of the story's work: the verdict commit's parent. */
  head: Sha,
  costUsd: z.number().nonnegative(),
  inputTokens: Count,
  outputTokens: Count,
  durationMs: Count,
  verifiedAt: z.iso.datetime({ offset: true }),
  /** The agent's final words without signal tags, for the progress entry. */
  summary: z.string(),
  /** Its `LEARN` lines, which land in the progress file with the story. */
  learnings: z.array(z.string()),
  /** Times the story's verified work was dropped because others landed first: such a story lands first. */
  requeues: Count.optional(),
  /** Set when the work was brought onto a new tip by the story's agent after a race (`base` is that tip). */
  resolved: z.boolean().optional(),
});
export type StoryVerdict = z.infer<typeof StoryVerdictSchema>;

const SUBJECT = /^ralph: .* verified$/;

/** The verdict commit's message. The subject is for people; the JSON body is the record. */
export function formatVerdictMessage(verdict: StoryVerdict): string {
  const valid = StoryVerdictSchema.parse(verdict);
  const id = valid.storyId.replace(/[\p{Cc}\s]+/gu, ' ').trim();
  return `ralph: ${id} verified\n\n${JSON.stringify(valid, null, 2)}\n`;
}

/** The verdict a commit message holds, or null when it is not a (valid) verdict. */
export function parseVerdictMessage(message: string): StoryVerdict | null {
  const newline = message.indexOf('\n');
  const subject = newline < 0 ? message : message.slice(0, newline);
  if (!SUBJECT.test(subject.trim())) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(message.slice(newline + 1));
  } catch {
    return null;
  }
  const parsed = StoryVerdictSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
