/**
 * Where a run is, in the words the page and `ralph status` (and its
 * `--json`) share: `running` (its lock's holder is alive and working),
 * `waiting` (alive, waiting out an outage or limit, or for an answer),
 * `complete` and `stopped` (finished: every story done, or ended with a
 * reason), `stopped-unexpectedly` (the lock's holder is gone while the run
 * still had work in flight or never wrote its end: a kill, a crash, a
 * power cut; the next `ralph run` recovers it), `idle` (never run), and
 * `needs-human` / `invalid` (a goal run asking for a person, a task file
 * that does not read). Pure.
 */

export type RunPhase =
  | 'running'
  | 'waiting'
  | 'complete'
  | 'stopped'
  | 'stopped-unexpectedly'
  | 'idle'
  | 'needs-human'
  | 'invalid';

export interface PhaseFacts {
  /** The run's lock is held by a live process. */
  live: boolean;
  /** The live run is waiting (an outage, a limit, answers to its questions). */
  waiting: boolean;
  /** What the run's state says is under way: attempts, a landing, a resolution. */
  inFlight: readonly string[];
  /** Its event log has a session's start without its end. */
  sessionOpen: boolean;
  allDone: boolean;
  /** Its last session ended with a stop record. */
  stopped: boolean;
  invalid: boolean;
}

export function runPhase(facts: PhaseFacts): RunPhase {
  if (facts.live) return facts.waiting ? 'waiting' : 'running';
  if (facts.invalid) return 'invalid';
  if (facts.inFlight.length > 0 || facts.sessionOpen) return 'stopped-unexpectedly';
  if (facts.allDone) return 'complete';
  if (facts.stopped) return 'stopped';
  return 'idle';
}

/** What a run's state holds under way, one phrase each: `US-001 attempt 2`, `landing US-002`, `resolving US-003`. */
export function inFlightOf(
  state: {
    current: { storyId: string; attempt: number } | null;
    running?: readonly { storyId: string; attempt: number }[];
    integrating?: { storyId: string };
    resolving?: { storyId: string };
  } | null,
): string[] {
  if (state === null) return [];
  return [
    ...(state.current ? [`${state.current.storyId} attempt ${state.current.attempt}`] : []),
    ...(state.running ?? []).map((r) => `${r.storyId} attempt ${r.attempt}`),
    ...(state.integrating ? [`landing ${state.integrating.storyId}`] : []),
    ...(state.resolving ? [`resolving ${state.resolving.storyId}`] : []),
  ];
}

/** The sentence for a run that stopped unexpectedly: when, what was in flight, what happens next. */
export function stoppedUnexpectedly(at: string | null, inFlight: readonly string[]): string {
  const when = at ? ` at ${at}` : '';
  const what = inFlight.length > 0 ? ` with ${inFlight.join(', ')} in flight` : '';
  return `stopped unexpectedly${when}${what} (its process is gone); the next \`ralph run\` recovers it and goes on`;
}
