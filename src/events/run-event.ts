/**
 * The one event vocabulary of every runner: the sequential and parallel
 * story runners, goal runs, and the role jobs (worker, integrate). Runners
 * emit `RunEvent`s; `openEventSinks` stamps each with its time and run and
 * fans it out to the plain lines, `--json`, the TUI, `ralph.log` and
 * `.ralph/runs/<name>/events.jsonl` — which a separate process (the web page,
 * `ralph status`) can follow on its own. Declared once, as schemas: the
 * records cross a process boundary, and are read back through them.
 */
import { z } from 'zod';
import { ATTEMPT_EVENTS } from './attempt-events.js';
import { GOAL_EVENTS } from './goal-events.js';
import { HOOK_EVENTS } from './hook-events.js';
import { LIFECYCLE_EVENTS } from './lifecycle-events.js';
import { PARALLEL_EVENTS, ROLE_EVENTS } from './parallel-events.js';
import { ON_COMPLETE_EVENTS, WORKSPACE_EVENTS } from './workspace-events.js';

export type { GoalStopReason, StopReason } from './lifecycle-events.js';

export const RunEventBodySchema = z.discriminatedUnion('type', [
  ...LIFECYCLE_EVENTS,
  ...ATTEMPT_EVENTS,
  ...WORKSPACE_EVENTS,
  ...ON_COMPLETE_EVENTS,
  ...HOOK_EVENTS,
  ...PARALLEL_EVENTS,
  ...ROLE_EVENTS,
  ...GOAL_EVENTS,
]);

/**
 * Where an event of a parallel run happened: a worker (1..N) running a
 * story's attempt in the story's own checkout, or the merge queue landing
 * it. Sequential runs leave it out.
 */
export const LaneTagSchema = z.object({
  worker: z.union([z.number().int().positive(), z.literal('merge')]).optional(),
  storyId: z.string().optional(),
});
export type LaneTag = z.infer<typeof LaneTagSchema>;

/** Every event as it is recorded: when, and in which run (the PRD's or the goal run's name). */
export const EventStampSchema = z.object({ at: z.iso.datetime({ offset: true }), run: z.string() });
export type EventStamp = z.infer<typeof EventStampSchema>;

/** One event, as a runner emits it. */
export type RunEvent = z.infer<typeof RunEventBodySchema> & LaneTag;
export type RunEventType = RunEvent['type'];
/** One event as every sink receives it, and as `events.jsonl` and `--json` hold it. */
export type RunEventRecord = RunEvent & EventStamp;

/** What a runner emits to. */
export type RunEventSink = (event: RunEvent) => void;
/** What a sink receives. */
export type RunEventRecordSink = (event: RunEventRecord) => void;

export const RunEventRecordSchema = z.intersection(
  RunEventBodySchema,
  LaneTagSchema.extend(EventStampSchema.shape),
);

export type RecordLine = { ok: true; event: RunEventRecord } | { ok: false; reason: string; raw: unknown };

/**
 * One line of `events.jsonl` or of `--json` output, read back. A line that
 * is not JSON, or not an event this version knows, is reported, never cast.
 */
export function parseRunEventLine(line: string): RecordLine {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'not JSON', raw: line };
  }
  const parsed = RunEventRecordSchema.safeParse(raw);
  if (parsed.success) return { ok: true, event: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    reason: issue ? `${issue.path.join('.') || '(event)'}: ${issue.message}` : 'not an event',
    raw,
  };
}

/** The members of the vocabulary with these types. */
export type EventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;
export type HookEvent = EventOf<'hook-started' | 'hook-finished' | 'hook-committed' | 'hook-not-landed'>;
