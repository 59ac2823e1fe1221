const MAX_BACKOFF_MS = 30 * 60_000;

/**
 * How long to wait after a rate limit: until the reset time when the agent
 * gave one we can read, else exponential backoff from `baseMs`.
 */
export function rateLimitWait(
  baseMs: number,
  streak: number,
  resetsAt: string | undefined,
  now: Date,
): number {
  if (resetsAt) {
    const at = Date.parse(resetsAt);
    if (!Number.isNaN(at) && at > now.getTime()) return at - now.getTime() + 5_000;
  }
  return Math.min(baseMs * 2 ** streak, MAX_BACKOFF_MS);
}

/** Sleeps, waking early if either signal is aborted. */
export function sleep(ms: number, ...signals: AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    if (signals.some((s) => s.aborted)) return resolve();
    const done = () => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const s of signals) s.addEventListener('abort', done, { once: true });
  });
}
