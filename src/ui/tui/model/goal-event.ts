/** Telling a goal run's own events from those both loops send. */
import type { GoalEvent } from '../../../goal/events.js';
import type { SessionEvent } from '../session.js';

/** The events only a goal run sends; the rest mean the same for both loops. */
export type GoalOnlyEvent = Extract<GoalEvent, { type: `goal-${string}` }>;

export const isGoalOnlyEvent = (event: SessionEvent): event is GoalOnlyEvent =>
  event.type.startsWith('goal-');

/** How a loop ended, whichever loop it was. */
export function finishOf(event: SessionEvent): { exitCode: number; reason: string; message: string } | null {
  if (event.type === 'run-finished' || event.type === 'goal-finished') {
    return { exitCode: event.exitCode, reason: event.reason, message: event.message };
  }
  return null;
}
