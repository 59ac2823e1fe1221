/** Signals to a whole process group: the agent and everything it started. */
import { setTimeout as sleep } from 'node:timers/promises';
import { descendantsOf, isRunning } from './process-tree.js';

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

/** Signals a process and, if it leads one, its group; false when neither exists. */
function signalProcessAndGroup(pid: number, signal: NodeJS.Signals): boolean {
  let reached = false;
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, signal);
      reached = true;
    } catch {
      // Not a group leader, already gone, or not ours.
    }
  }
  return reached;
}

/**
 * SIGTERM to the group and to every descendant (tool commands may run in
 * sessions of their own), SIGKILL after `graceMs` to whatever is left.
 * Descendants are listed before anything is signalled: once their parent
 * dies they are re-parented and can no longer be told apart.
 */
export async function terminateGroup(pid: number, graceMs: number, pollMs = 50): Promise<void> {
  const tree = descendantsOf(pid);
  const groupAlive = signalGroup(pid, 'SIGTERM');
  for (const child of tree) signalProcessAndGroup(child, 'SIGTERM');
  const anyLeft = () => groupExistsRunning(pid) || tree.some(isRunning);
  if (!groupAlive && !tree.some(isRunning)) return;
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline) {
    await sleep(pollMs);
    if (!anyLeft()) return;
  }
  // Children started during the grace period are caught by a second look.
  const late = tree.flatMap((child) => descendantsOf(child));
  signalGroup(pid, 'SIGKILL');
  for (const child of [...tree, ...late]) signalProcessAndGroup(child, 'SIGKILL');
}

/** The group still has a member that is not a zombie (zombies of an unreaped group still answer kill 0). */
function groupExistsRunning(pid: number): boolean {
  return groupExists(pid) && (isRunning(pid) || descendantsOf(pid).some(isRunning));
}

/**
 * Like `terminateGroup`, for processes found by other means than being our
 * child (see `processesWithEnv`): each of them, the group each leads, and
 * all their descendants get SIGTERM, then SIGKILL after `graceMs`.
 */
export async function terminateProcesses(
  pids: readonly number[],
  graceMs: number,
  pollMs = 50,
): Promise<void> {
  const all = [...new Set(pids.flatMap((pid) => [pid, ...descendantsOf(pid)]))];
  for (const pid of all) signalProcessAndGroup(pid, 'SIGTERM');
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline) {
    if (!all.some(isRunning)) return;
    await sleep(pollMs);
  }
  const late = all.flatMap((pid) => descendantsOf(pid));
  for (const pid of [...all, ...late]) signalProcessAndGroup(pid, 'SIGKILL');
}
