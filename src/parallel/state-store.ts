import { type RunState, writeRunState } from '../state/run-state.js';
import { startIntegrating } from '../state/running-attempts.js';

/**
 * The run state of a parallel run, shared by its workers and merge queue in
 * one process: every change is applied to the latest state in the order it
 * was made, and written in that order. A caller awaiting `update` knows its
 * change (and every earlier one) is on disk.
 */
export interface StateStore {
  readonly current: RunState;
  update(change: (state: RunState) => RunState): Promise<RunState>;
}

export function createStateStore(file: string, initial: RunState): StateStore {
  let state = initial;
  let writes: Promise<void> = Promise.resolve();
  return {
    get current() {
      return state;
    },
    update(change) {
      state = change(state);
      const snapshot = state;
      writes = writes.then(() => writeRunState(file, snapshot));
      return writes.then(() => snapshot);
    },
  };
}

/**
 * What a landing records the moment it starts (`landStory`'s `began`): the tip it started from
 * and its token, so a run killed mid-landing can undo or finish it.
 */
export function recordLandingStart(
  store: StateStore,
  landing: { storyId: string; checkout: string; branch: string; now: () => Date },
): (tipBefore: string, token: string) => Promise<void> {
  return async (tipBefore, token) => {
    await store.update((s) =>
      startIntegrating(s, {
        storyId: landing.storyId,
        checkout: landing.checkout,
        branch: landing.branch,
        tipBefore,
        token,
        startedAt: landing.now().toISOString(),
      }),
    );
  };
}
