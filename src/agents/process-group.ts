/** Signals to a whole process group: the agent and everything it started. */
import { setTimeout as sleep } from 'node:timers/promises';

const errnoOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;

/** Sends `signal` to the group led by `pid`; false when the group no longer exists. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    if (errnoOf(error) === 'ESRCH') return false;
    throw error;
  }
}

export const groupExists = (pid: number): boolean => signalGroup(pid, 0);

/**
 * SIGTERM to the group, SIGKILL after `graceMs` if anything is left.
 * Members that already died but were not reaped (zombies) still count as
 * present, so this may wait the full grace; it never waits longer.
 */
export async function terminateGroup(pid: number, graceMs: number, pollMs = 50): Promise<void> {
  if (!signalGroup(pid, 'SIGTERM')) return;
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline) {
    await sleep(pollMs);
    if (!groupExists(pid)) return;
  }
  signalGroup(pid, 'SIGKILL');
}
