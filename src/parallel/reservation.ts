import { reserveLanding } from '../state/race-records.js';
import type { ParallelRun } from './parallel-run.js';

/**
 * Ends the reservation of the next landing when it is this story's: it
 * landed, was parked, failed on its own, or cannot start now.
 */
export async function releaseReservation(run: ParallelRun, storyId: string): Promise<void> {
  if (run.reserved?.storyId !== storyId) return;
  run.reserved = null;
  await run.store.update((s) => reserveLanding(s, null, run.ctx.now()));
}
