import type { AgentSetup } from '../agents/adapter.js';
import { type AgentChoice, setUpAgent } from '../agents/agent-setup.js';
import { setUpFallbackAgents } from '../agents/fallback-agents.js';
import type { Config } from '../state/config.js';

/** What every loop command sets up the same way: the agent, its fallbacks, limits and on-complete wishes. */
export interface RunAgents {
  agent: AgentSetup;
  /** `agent.fallback`, ready to take over on a rate limit. */
  fallbackAgents: AgentSetup[];
}

export async function setUpRunAgents(
  config: Config,
  choice: AgentChoice,
  warn: (message: string) => void,
): Promise<RunAgents> {
  const agent = await setUpAgent(config, choice);
  return { agent, fallbackAgents: await setUpFallbackAgents(config, agent, warn) };
}

/** `--push` / `--pr`, else the config's `onComplete`. */
export function onCompleteWanted(
  opts: { push?: boolean; pr?: boolean },
  config: Config,
): { push: boolean; createPR: boolean } {
  return { push: opts.push ?? config.onComplete.push, createPR: opts.pr ?? config.onComplete.createPR };
}
