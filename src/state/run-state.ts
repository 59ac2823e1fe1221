import { z } from 'zod';
import { InvalidInputError } from '../core/errors.js';
import { formatIssue, formatPath, type ValidationIssue } from '../core/validation-issue.js';
import { writeFileAtomic } from './atomic.js';
import { readTextOrNull } from './fs-util.js';

const Timestamp = z.iso.datetime({ offset: true });
const Count = z.number().int().nonnegative();
const Amount = z.number().nonnegative();

export const CurrentAttemptSchema = z.object({
  storyId: z.string().min(1),
  attempt: z.number().int().positive(),
  iteration: z.number().int().positive(),
  /** HEAD when the attempt began: where a failed or crashed attempt is rolled back to. */
  headBefore: z.string().regex(/^[0-9a-f]{7,64}$/, 'expected a git commit sha'),
  startedAt: Timestamp,
  /** The agent's process group, so a run resumed after a crash can stop an agent left running. */
  agentPid: z.number().int().positive().optional(),
  /** `RALPH_ATTEMPT` in the agent's environment, recorded before the spawn: finds its processes when the pid never got here. */
  agentToken: z.string().min(1).optional(),
  /** `recording`: the pass was verified and is being written; resume completes it rather than redoing the story. */
  phase: z.enum(['agent', 'recording']).optional(),
  /** The verified commits of a pass being recorded. */
  passCommits: z.array(z.string()).optional(),
});
export type CurrentAttempt = z.infer<typeof CurrentAttemptSchema>;

/** Parallel runs: one attempt in flight per worker, each in its story's own checkout. */
export const RunningAttemptSchema = CurrentAttemptSchema.extend({
  worker: z.number().int().positive(),
  /** The story's branch and worktree, removed when a run killed mid-attempt is resumed. */
  branch: z.string().min(1),
  worktree: z.string().min(1),
});
export type RunningAttempt = z.infer<typeof RunningAttemptSchema>;

/** Parallel runs: the story being landed. Its PRD checkout is detached until the branch has moved. */
export const IntegratingSchema = z.object({
  storyId: z.string().min(1),
  /** The checkout the story is integrated in, and the PRD branch it belongs on. */
  checkout: z.string().min(1),
  branch: z.string().min(1),
  tipBefore: z.string().regex(/^[0-9a-f]{7,64}$/, 'expected a git commit sha'),
  startedAt: Timestamp,
  /** The landing's `RALPH_ATTEMPT` token, carried by its gates: a gate left running by a kill is found by it. */
  token: z.string().min(1),
});
export type Integrating = z.infer<typeof IntegratingSchema>;

/** Parallel runs: the story that lost a race to land, and the files its work touched. The next landing is its. */
export const ReservationSchema = z.object({
  storyId: z.string().min(1),
  files: z.array(z.string()),
});

/** Parallel runs: a story's agent bringing its verified work onto the PRD branch's new tip, in the story's checkout. */
export const ResolvingSchema = z.object({
  storyId: z.string().min(1),
  worktree: z.string().min(1),
  iteration: z.number().int().positive(),
  startedAt: Timestamp,
  agentPid: z.number().int().positive().optional(),
  agentToken: z.string().min(1).optional(),
});
export type Resolving = z.infer<typeof ResolvingSchema>;

export const FailureSchema = z.object({
  reason: z.string(),
  kind: z.string(),
  at: Timestamp,
  /** The failing gate's output tail, shown to the next attempt. */
  gateOutputTail: z.string().optional(),
});
export type Failure = z.infer<typeof FailureSchema>;

export const StoryRunSchema = z.object({
  attempts: Count,
  passedAt: Timestamp.optional(),
  parked: z.boolean().optional(),
  lastFailure: FailureSchema.optional(),
  /** Parallel runs: times its verified work was redone because other stories landed first (never a failed attempt). */
  requeues: Count.optional(),
  /** Why it was last requeued, for the redo's prompt; cleared by a failed attempt, as `lastFailure` is by a requeue. */
  lastRequeue: FailureSchema.optional(),
  costUsd: Amount,
  inputTokens: Count,
  outputTokens: Count,
  durationMs: Count,
  commits: z.array(z.string()),
});
export type StoryRun = z.infer<typeof StoryRunSchema>;

export const TotalsSchema = z.object({
  costUsd: Amount,
  inputTokens: Count,
  outputTokens: Count,
  iterations: Count,
});
export type Totals = z.infer<typeof TotalsSchema>;

export const StopSchema = z.object({ reason: z.string(), at: Timestamp, exitCode: z.number().int() });
export type Stop = z.infer<typeof StopSchema>;

export const RunStateSchema = z.object({
  version: z.literal(1),
  name: z.string().min(1),
  taskPath: z.string().min(1),
  startedAt: Timestamp,
  updatedAt: Timestamp,
  /** Iterations run so far; iteration n's agent stream is `iterations/<n>.jsonl`. */
  iteration: Count,
  /** The attempt in flight. Non-null on load means the last run died mid-attempt. */
  current: CurrentAttemptSchema.nullable(),
  /** Parallel runs: the attempts in flight. Non-empty on load means the last run died with them running. */
  running: z.array(RunningAttemptSchema).optional(),
  integrating: IntegratingSchema.optional(),
  resolving: ResolvingSchema.optional(),
  reserved: ReservationSchema.optional(),
  stories: z.record(z.string(), StoryRunSchema),
  totals: TotalsSchema,
  stop: StopSchema.optional(),
});
export type RunState = z.infer<typeof RunStateSchema>;

/**
 * The saved run state, or null when there is none yet. A file that exists
 * but cannot be read as a run state is an error, never a silent reset:
 * it holds the record of attempts, costs and the in-flight attempt.
 */
export async function readRunState(file: string): Promise<RunState | null> {
  const text = await readTextOrNull(file);
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalid(file, [{ file, message: `not valid JSON (${reason})`, severity: 'error' }]);
  }
  const parsed = RunStateSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw invalid(
    file,
    parsed.error.issues.map((issue) => ({
      file,
      path: formatPath(issue.path),
      message: issue.message,
      severity: 'error',
    })),
  );
}

export async function writeRunState(file: string, state: RunState): Promise<void> {
  const valid = RunStateSchema.parse(state);
  await writeFileAtomic(file, `${JSON.stringify(valid, null, 2)}\n`);
}

function invalid(file: string, issues: ValidationIssue[]): InvalidInputError {
  const first = issues[0];
  const summary = first ? formatIssue(first) : file;
  return new InvalidInputError(
    `Run state is corrupt: ${summary}. Nothing was changed; fix the file, or move it away to start this run from scratch.`,
    issues,
  );
}
