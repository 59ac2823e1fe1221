import type { RunEventSink } from '../events/run-event.js';
import { watchControlFile } from '../run/control-watch.js';
import { type AcquireLockOptions, acquireLock, type LockHandle, whileHolding } from '../state/lock.js';

export interface HeldRun {
  lockPath: string;
  /** The run's folder, where the web page leaves its Pause and Stop requests. */
  runDir: string;
  lock: Pick<AcquireLockOptions, 'command' | 'force' | 'sandbox'>;
}

interface RunSignals {
  stop: AbortSignal;
  kill: AbortSignal;
  emit: RunEventSink;
}

/**
 * A run of `ralph run` or `ralph goal` holds its lock for the whole of `body`
 * (taken before anything changes: a second run must not archive, switch
 * branches or set up a worktree under a live one) and obeys its control file
 * meanwhile: the web page's Pause and Stop reach the run through it, whoever
 * else watches the run. `body` gets the signals with those requests folded in.
 */
export async function holdRun<T, R extends RunSignals>(
  held: HeldRun,
  run: R,
  body: (run: R, lock: LockHandle) => Promise<T>,
): Promise<T> {
  const lock = await acquireLock(held.lockPath, held.lock);
  const control = watchControlFile({
    runDir: held.runDir,
    lock: lock.info,
    stop: run.stop,
    kill: run.kill,
    emit: run.emit,
  });
  return whileHolding(lock, async () => {
    try {
      return await body({ ...run, stop: control.stop, kill: control.kill }, lock);
    } finally {
      await control.dispose();
    }
  });
}
