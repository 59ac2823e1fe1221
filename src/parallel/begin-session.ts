/** A session of a runner that lands story branches: the parallel run, and the role jobs. */

import { readTaskFile } from '../run/read-task-file.js';
import type { RunContext } from '../run/run-context.js';
import { beginSession } from '../run/session-start.js';
import type { RunState } from '../state/run-state.js';
import { recoverStories, type WaitingStory } from './parallel-recovery.js';

/**
 * Begins the session as every runner does, with the stories a killed run left in flight recovered
 * after the interrupted attempt: verified work comes back as waiting to land.
 */
export async function beginLandingSession(
  ctx: RunContext,
  root: string,
  saved: RunState,
  options: { hooks: boolean },
): Promise<{ state: RunState; waiting: WaitingStory[] }> {
  let waiting: WaitingStory[] = [];
  const state = await beginSession(ctx, saved, {
    hooks: options.hooks,
    more: async (settled) => {
      const recovered = await recoverStories(ctx, root, settled, await readTaskFile(ctx));
      waiting = recovered.waiting;
      return recovered.state;
    },
  });
  return { state, waiting };
}
