/** Telling the events a goal run says in its own words from those every run says alike. */
import type { EventOf } from '../../../events/run-event.js';
import type { SessionEvent } from '../session.js';

/**
 * A goal run's start, iteration, failure, rollback, recovery and end, and
 * its own result events. (A plain boolean: a story run's events of the same
 * types must not be narrowed away.)
 */
export function isGoalFlavoured(event: SessionEvent): boolean {
  switch (event.type) {
    case 'goal-result':
    case 'goal-warning':
    case 'goal-complete-refused':
      return true;
    case 'run-started':
    case 'run-finished':
      return event.goal !== undefined;
    case 'iteration-started':
      return event.mode !== undefined;
    // A story run's always name their story.
    case 'attempt-failed':
    case 'rolled-back':
    case 'recovered':
      return event.storyId === undefined;
    default:
      return false;
  }
}

/** How a loop ended, whichever loop it was. */
export function finishOf(event: SessionEvent): { exitCode: number; reason: string; message: string } | null {
  return event.type === 'run-finished'
    ? { exitCode: event.exitCode, reason: event.reason, message: event.message }
    : null;
}

/** The story an iteration works on and its attempt (a goal iteration: its step, or its mode). */
export function attemptOf(event: EventOf<'iteration-started'>): {
  storyId: string;
  title: string;
  attempt: number;
  maxAttempts: number;
} {
  const id = event.storyId ?? event.step?.id ?? event.mode ?? '';
  return {
    storyId: id,
    title: event.title ?? (event.step ? (event.step.prompt.trim().split('\n')[0] ?? '') : id),
    attempt: event.attempt ?? 1,
    // A goal run has no per-step limit: failed iterations in a row stop it instead.
    maxAttempts: event.maxAttempts ?? 0,
  };
}
