/**
 * A heartbeat while the agent is silent: after `everyMs` without a word
 * from it, and again after each further `everyMs`, the kernel reports how
 * long it has been quiet, so that a headless run shows it is alive.
 */
export interface Heartbeat {
  /** The agent is running: the clock starts. */
  start(): void;
  /** The agent said something. */
  heard(): void;
  stop(): void;
}

export function startHeartbeat(
  everyMs: number | undefined,
  beat: (at: { silentMs: number; elapsedMs: number }) => void,
): Heartbeat {
  if (everyMs === undefined || !(everyMs > 0)) return { start: () => {}, heard: () => {}, stop: () => {} };
  let startedAt = 0;
  let heardAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(fire, everyMs);
    timer.unref();
  };
  const fire = () => {
    const now = performance.now();
    beat({ silentMs: Math.round(now - heardAt), elapsedMs: Math.round(now - startedAt) });
    arm();
  };
  return {
    start() {
      startedAt = performance.now();
      heardAt = startedAt;
      arm();
    },
    heard() {
      if (timer === undefined) return;
      heardAt = performance.now();
      arm();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
