import { type OutsideFailure, outageBackoffMs } from '../core/outside-failure.js';
import { sleep } from './waits.js';

/** How an outage is waited out: the budget, the backoff, how often a waiting run says so. */
export interface OutageTiming {
  /** The whole outage may last this long before the run stops (`--outage-wait`). */
  waitMs: number;
  /** The first wait; it doubles on each further one, up to `capMs`. */
  backoffMs: number;
  capMs: number;
  /** A waiting run says so again this often (a line a minute, headless). */
  tickMs: number;
}

export interface OutageListener {
  /** The run waits: `waitMs` more, until `until`. Said when the wait starts and every `tickMs`. */
  waiting(wait: { waitMs: number; until: Date; message: string }): void;
}

/**
 * Waits out an outage that began at `since`: backoff, then a cheap probe
 * where there is one (`probe` answers false while the API is still out of
 * reach), again and again, until the API looks back or the budget is spent.
 * Resolves `retry` when the next attempt may start (or a signal aborted),
 * `gave-up` when the outage outlasted `timing.waitMs`.
 */
export async function waitOutOutage(input: {
  failure: OutsideFailure;
  since: number;
  /** Waits already made in this outage; the backoff goes on from there. */
  streak: { count: number };
  timing: OutageTiming;
  now: () => number;
  probe?: () => Promise<boolean | undefined>;
  listener: OutageListener;
  signals: readonly AbortSignal[];
}): Promise<'retry' | 'gave-up'> {
  const { timing, now, signals } = input;
  let message = input.failure.message;
  for (;;) {
    const remainingMs = input.since + timing.waitMs - now();
    if (remainingMs <= 0) return 'gave-up';
    const waitMs = outageBackoffMs({
      baseMs: timing.backoffMs,
      capMs: timing.capMs,
      streak: input.streak.count++,
      remainingMs,
    });
    const until = now() + waitMs;
    for (let left = waitMs; left > 0; left = until - now()) {
      input.listener.waiting({ waitMs: left, until: new Date(until), message });
      await sleep(Math.min(left, timing.tickMs), ...signals);
      if (signals.some((s) => s.aborted)) return 'retry';
    }
    if (input.failure.cause !== 'unreachable' || input.probe === undefined) return 'retry';
    if ((await input.probe()) !== false) return 'retry';
    message = `still unreachable: ${input.failure.message}`;
  }
}
