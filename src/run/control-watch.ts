import { rm } from 'node:fs/promises';
import type { RunEventSink } from '../events/run-event.js';
import type { LockInfo } from '../state/lock.js';
import { controlFile, isForRun, readControlRequest } from '../state/run-control.js';

/** How often a run looks at its control file: a request takes effect within this. */
const DEFAULT_INTERVAL_MS = 500;

export interface ControlWatchOptions {
  runDir: string;
  /** The run's own lock: only requests naming it are obeyed. */
  lock: LockInfo;
  /** The signals the run already has (Ctrl-C, the TUI's keys). */
  stop: AbortSignal;
  kill: AbortSignal;
  emit: RunEventSink;
  intervalMs?: number;
}

export interface ControlledRun {
  /** Aborted by the caller's stop or a `pause` request: finish the iteration, then stop. */
  stop: AbortSignal;
  /** Aborted by the caller's kill or a `stop` request: kill the agent now. */
  kill: AbortSignal;
  /** Stops watching and removes a request addressed to this run. */
  dispose(): Promise<void>;
}

/**
 * Makes a run obey its control file (`state/run-control.ts`) as it obeys
 * Ctrl-C: `pause` is the first Ctrl-C, `stop` the second. Polled rather than
 * watched with inotify, which misses writes from other machines sharing the
 * folder; one small read every half second.
 */
export function watchControlFile(options: ControlWatchOptions): ControlledRun {
  const pause = new AbortController();
  const halt = new AbortController();
  const stop = AbortSignal.any([options.stop, pause.signal]);
  const kill = AbortSignal.any([options.kill, halt.signal]);
  let busy = false;
  const check = async () => {
    if (busy) return;
    busy = true;
    try {
      const request = await readControlRequest(options.runDir);
      if (request === null || !isForRun(request, options.lock)) return;
      if (request.request === 'pause' && !stop.aborted) {
        pause.abort();
        options.emit({ type: 'stop-requested', how: 'graceful', from: request.from });
      } else if (request.request === 'stop' && !kill.aborted) {
        pause.abort();
        halt.abort();
        options.emit({ type: 'stop-requested', how: 'immediate', from: request.from });
      }
    } catch {
      // An unreadable folder for a moment (a network share) is no reason to stop a run; the next look tries again.
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void check(), options.intervalMs ?? DEFAULT_INTERVAL_MS);
  timer.unref();
  return {
    stop,
    kill,
    async dispose() {
      clearInterval(timer);
      const request = await readControlRequest(options.runDir).catch(() => null);
      if (request !== null && isForRun(request, options.lock))
        await rm(controlFile(options.runDir), { force: true });
    },
  };
}
