import type { RunEvent } from '../events/run-event.js';
import type { LockHandle } from '../state/lock.js';

/** What the user is told when the run's lock was taken from an earlier holder; null when it was free. */
export function lockTakeoverEvent(lock: LockHandle): Extract<RunEvent, { type: 'lock-taken-over' }> | null {
  const taken = lock.tookOver;
  if (taken?.previous == null) return null;
  const { pid, host, startedAt } = taken.previous;
  return { type: 'lock-taken-over', previousPid: pid, host, startedAt, reason: taken.reason };
}
