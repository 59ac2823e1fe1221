export interface StopSignals {
  /** Aborted on the first Ctrl-C: finish the iteration, then stop. */
  stop: AbortSignal;
  /** Aborted on the second Ctrl-C, or when the terminal closes: kill the agent now. */
  kill: AbortSignal;
}

/**
 * Runs a loop with ralph's stop keys: Ctrl-C once stops after the current
 * iteration, twice kills the agent's process group at once. A terminal
 * closing or a supervisor stopping us (SIGHUP, SIGTERM) gets the immediate
 * stop. `told` hears each Ctrl-C, for the event stream.
 */
export async function withInterrupts<T>(
  told: (how: 'graceful' | 'immediate') => void,
  body: (signals: StopSignals) => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  const kill = new AbortController();
  const onSigint = () => {
    if (!stop.signal.aborted) {
      stop.abort();
      told('graceful');
    } else if (!kill.signal.aborted) {
      kill.abort();
      told('immediate');
    }
  };
  const onTerm = () => {
    stop.abort();
    kill.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onTerm);
  try {
    return await body({ stop: stop.signal, kill: kill.signal });
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onTerm);
  }
}
