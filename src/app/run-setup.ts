import type { AgentSetup } from '../agents/adapter.js';
import { type AgentChoice, setUpAgent } from '../agents/agent-setup.js';
import { setUpFallbackAgents } from '../agents/fallback-agents.js';
import { AgentUnusableError } from '../core/errors.js';
import type { RunEventSink } from '../events/run-event.js';
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
  run: { emit: RunEventSink },
): Promise<RunAgents> {
  const agent = await setUpRunAgent(config, choice, run.emit);
  // A fallback left out is a warning of the run: on its lines, in the TUI, in events.jsonl.
  const warn = (message: string) => run.emit({ type: 'warning', message });
  return { agent, fallbackAgents: await setUpFallbackAgents(config, agent, warn) };
}

/**
 * The agent of a command whose run's sinks are open. One that cannot start
 * or log in here is said as `agent-unusable` (in events.jsonl, to webhooks
 * and the TUI, as when an attempt finds it) before the error stops the
 * command with exit 4.
 */
export async function setUpRunAgent(
  config: Config,
  choice: AgentChoice,
  emit: RunEventSink,
): Promise<AgentSetup> {
  try {
    return await setUpAgent(config, choice);
  } catch (error) {
    if (error instanceof AgentUnusableError) {
      const { agent, kind, message, fix } = error;
      emit({ type: 'agent-unusable', agent, kind, message, fix });
    }
    throw error;
  }
}

/** `--push` / `--pr`, else the config's `onComplete`. */
export function onCompleteWanted(
  opts: { push?: boolean; pr?: boolean },
  config: Config,
): { push: boolean; createPR: boolean } {
  return { push: opts.push ?? config.onComplete.push, createPR: opts.pr ?? config.onComplete.createPR };
}
