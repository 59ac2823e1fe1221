/**
 * A parallel run as the TUI shows it: one lane per worker (its story, the
 * attempt, what the agent is doing, since when) and the merge queue (the
 * story being landed, those waiting). Folded from the events' lane tags.
 * Pure: the time of each event is passed in.
 */

import type { RunEvent } from '../../../events/run-event.js';
import { describeRace, firstLine } from '../../plain-reporter.js';
import type { SessionEvent } from '../session.js';
import { attemptOf } from './goal-event.js';

export interface WorkerLane {
  storyId: string;
  title: string;
  /** Zero until the attempt starts (the worktree is being made). */
  attempt: number;
  maxAttempts: number;
  startedAtMs: number;
  activity: string;
}

export interface MergeLane {
  /** The story being landed, if any. */
  storyId: string | null;
  startedAtMs: number | null;
  activity: string;
  /** Verified stories waiting to land, in the order they will. */
  waiting: readonly string[];
  landed: number;
}

export interface Lanes {
  workers: number;
  /** The busy workers' lanes by worker number (1..workers). */
  busy: Readonly<Record<number, WorkerLane>>;
  merge: MergeLane;
}

const idleMerge: MergeLane = { storyId: null, startedAtMs: null, activity: '', waiting: [], landed: 0 };

export function reduceLanes(lanes: Lanes | null, event: SessionEvent, nowMs: number): Lanes | null {
  if (event.type === 'parallel-started') return { workers: event.workers, busy: {}, merge: idleMerge };
  if (event.type === 'run-started' || event.type === 'run-finished' || lanes === null) return null;
  // Only a PRD loop's events carry a worker; a goal run's never do.
  if (!('worker' in event)) return lanes;
  const { worker } = event;
  if (worker === 'merge') return { ...lanes, merge: mergeLane(lanes.merge, event, nowMs) };
  if (worker === undefined) return lanes;
  const lane = workerLane(lanes.busy[worker], event, nowMs);
  const busy = { ...lanes.busy };
  if (lane === null) delete busy[worker];
  else busy[worker] = lane;
  const merge =
    event.type === 'story-verified'
      ? { ...lanes.merge, waiting: [...lanes.merge.waiting, event.storyId] }
      : lanes.merge;
  return { ...lanes, busy, merge };
}

/** The worker's lane after `event`, or null when its attempt is over. */
function workerLane(lane: WorkerLane | undefined, event: RunEvent, nowMs: number): WorkerLane | null {
  const storyId = event.storyId ?? lane?.storyId ?? '';
  const base: WorkerLane = lane ?? {
    storyId,
    title: '',
    attempt: 0,
    maxAttempts: 0,
    startedAtMs: nowMs,
    activity: '',
  };
  switch (event.type) {
    case 'worktree-created':
    case 'worktree-reused':
      return { ...base, activity: 'preparing its worktree' };
    case 'setup-started':
      return { ...base, activity: `setup: ${event.command}` };
    case 'iteration-started':
      return {
        ...base,
        ...attemptOf(event),
        startedAtMs: nowMs,
        activity: 'agent starting',
      };
    case 'agent-event': {
      const e = event.event;
      if (e.type === 'tool-started') return { ...base, activity: `⚙ ${e.name} ${e.summary}`.trim() };
      if (e.type === 'assistant-text' && e.text.trim() !== '')
        return { ...base, activity: firstLine(e.text) };
      if (e.type === 'error') return { ...base, activity: `agent error: ${firstLine(e.message)}` };
      return base;
    }
    case 'signal':
      return event.signal === 'learn'
        ? base
        : { ...base, activity: `${event.signal.toUpperCase()} ${event.detail}` };
    case 'check-started':
      return { ...base, activity: `check: ${event.command}` };
    case 'story-verified':
    case 'rolled-back':
    case 'attempt-failed':
    case 'rate-limited':
      return null;
    default:
      return lane === undefined ? null : base;
  }
}

function mergeLane(merge: MergeLane, event: RunEvent, nowMs: number): MergeLane {
  switch (event.type) {
    case 'integration-started':
      return {
        ...merge,
        storyId: event.storyId,
        startedAtMs: nowMs,
        activity: `rebasing onto ${event.onto}`,
        waiting: merge.waiting.filter((id) => id !== event.storyId),
      };
    case 'check-started':
      return { ...merge, activity: `check: ${event.command}` };
    case 'story-passed':
      return {
        ...merge,
        storyId: null,
        startedAtMs: null,
        activity: `✓ ${event.storyId} landed${event.afterResolution ? ' after resolution' : ''}`,
        landed: merge.landed + 1,
      };
    case 'resolution-started':
      return {
        ...merge,
        storyId: event.storyId,
        startedAtMs: nowMs,
        // The lane shows the story already: the activity says what it waits for.
        activity: `waits to land (${describeRace(event)}); resolving with ${event.agent}`,
      };
    case 'agent-event': {
      // The story's agent, resolving a race in its own checkout.
      const e = event.event;
      if (e.type === 'tool-started')
        return { ...merge, activity: `resolving: ⚙ ${e.name} ${e.summary}`.trim() };
      return merge;
    }
    case 'resolution-finished':
      return {
        ...merge,
        activity: event.resolved
          ? 'resolved on the new tip; landing'
          : `✗ ${event.storyId}: resolution refused (${firstLine(event.reason ?? '')})`,
      };
    case 'story-requeued':
      return {
        ...merge,
        storyId: null,
        startedAtMs: null,
        activity: `↻ ${event.storyId} requeued (${event.requeues}/${event.maxRequeues}): redone from the new tip, lands next`,
      };
    case 'integration-failed':
      if (event.next === 'resolve') {
        return { ...merge, activity: `${event.storyId}: the new tip moved on; bringing its work onto it` };
      }
      return {
        ...merge,
        storyId: null,
        startedAtMs: null,
        activity:
          event.kind === 'conflict'
            ? `✗ ${event.storyId}: conflict in ${event.files.join(', ')}; retried on the new tip`
            : `✗ ${event.storyId}: the checks failed on the new tip; retried`,
      };
    default:
      return merge;
  }
}
