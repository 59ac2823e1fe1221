/**
 * A cheap look at whether an agent's API can be reached at all: one HEAD
 * request to its base URL. Any HTTP answer, even an error status, means the
 * network path is there; only a failed connection (refused, reset, DNS, TLS,
 * no answer in time) means it is not. It says nothing of overload or server
 * errors, which only a real request shows: for those the next attempt is the
 * probe (and is stopped early if it fails; see `watchOutside`).
 */
import type { AgentSetup } from './adapter.js';

export const PROBE_TIMEOUT_MS = 5_000;

/** True when the URL answered, false when no connection could be made. */
export async function probeUrl(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  try {
    const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** Whether the agent's API answers; undefined when ralph does not know where its API is. */
export async function probeAgentApi(agent: AgentSetup): Promise<boolean | undefined> {
  const base = agent.adapter.apiBase(agent.env, agent.extraArgs);
  if (base === undefined) return undefined;
  return probeUrl(base);
}
