import { ATTEMPT_ENV, processesWithEnv } from '../agents/process-environ.js';
import { terminateGroup, terminateProcesses } from '../agents/process-group.js';

/** What a run records of an attempt in flight, to find its processes after a kill -9. */
export interface AttemptProcesses {
  /** The agent's pid (and process group), once it reached the state. */
  agentPid?: number | undefined;
  /** The attempt's `RALPH_ATTEMPT` token, recorded before the spawn. */
  token?: string | undefined;
}

/** Rounds of looking again: a process being killed may have started another meanwhile. */
const ROUNDS = 5;

/**
 * Stops whatever an interrupted attempt left running, before its work is
 * rolled back: the recorded process group, and every process carrying the
 * attempt's token — the agent whose pid never reached the state, and what it
 * started, whatever group or session it is in. Gone is fine.
 */
export async function stopLeftovers(left: AttemptProcesses, graceMs = 2_000): Promise<void> {
  if (left.agentPid !== undefined) await terminateGroup(left.agentPid, graceMs);
  if (left.token === undefined) return;
  for (let round = 0; round < ROUNDS; round++) {
    const found = processesWithEnv(ATTEMPT_ENV, left.token);
    if (found.length === 0) return;
    await terminateProcesses(found, graceMs);
  }
}
