import { terminateGroup } from '../agents/process-group.js';

/** Stops an agent left running by a run that was killed, with everything it started; gone is fine. */
export async function killProcessGroup(pid: number, graceMs = 2_000): Promise<void> {
  await terminateGroup(pid, graceMs);
}
