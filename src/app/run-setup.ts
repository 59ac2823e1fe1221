import type { AgentSetup } from '../agents/adapter.js';
import { type AgentChoice, checkAgent, resolveAgent } from '../agents/agent-setup.js';
import { checkFallbackAgents, resolveFallbackAgents } from '../agents/fallback-agents.js';
import type { CommandWrapper } from '../agents/spawn-command.js';
import { AgentUnusableError } from '../core/errors.js';
import type { RunEventSink } from '../events/run-event.js';
import type { Config } from '../state/config.js';

/** What every loop command sets up the same way: the agent, its fallbacks, limits and on-complete wishes. */
export interface RunAgents {
  agent: AgentSetup;
  /** `agent.fallback`, ready to take over on a rate limit. */
  fallbackAgents: AgentSetup[];
}

/**
 * The agents, and the run's sandbox made for them (`sandboxFor`, when the run
 * has one): their preflight's `--version` runs inside it, as they will.
 */
export async function setUpRunAgents(
  config: Config,
  choice: AgentChoice,
  run: { emit: RunEventSink },
  sandbox?: { wrapFor: (agents: AgentSetup[]) => CommandWrapper | undefined; cwd: string },
): Promise<RunAgents & { wrap?: CommandWrapper }> {
  // A fallback left out is a warning of the run: on its lines, in the TUI, in events.jsonl.
  const warn = (message: string) => run.emit({ type: 'warning', message });
  const primary = await saidUnusable(run.emit, () => resolveAgent(config, choice));
  const candidates = await resolveFallbackAgents(config, primary, warn);
  const wrap = sandbox?.wrapFor([primary, ...candidates]);
  const box = wrap && sandbox ? { wrap, cwd: sandbox.cwd } : undefined;
  const agent = await saidUnusable(run.emit, () => checkAgent(primary, box));
  const fallbackAgents = await checkFallbackAgents(candidates, warn, box);
  return { agent, fallbackAgents, ...(wrap ? { wrap } : {}) };
}

/**
 * The one agent of a role job (no fallbacks), whose run's sinks are open: its
 * `--version` runs inside the run's sandbox when it has one, as it will. One
 * that cannot start or log in here is said as `agent-unusable` (in
 * events.jsonl, to webhooks and the TUI, as when an attempt finds it) before
 * the error stops the command with exit 4.
 */
export async function setUpRunAgent(
  config: Config,
  choice: AgentChoice,
  emit: RunEventSink,
  sandbox: { wrapFor: (agents: AgentSetup[]) => CommandWrapper | undefined; cwd: string },
): Promise<{ agent: AgentSetup; wrap?: CommandWrapper }> {
  const primary = await saidUnusable(emit, () => resolveAgent(config, choice));
  const wrap = sandbox.wrapFor([primary]);
  const box = wrap ? { wrap, cwd: sandbox.cwd } : undefined;
  const agent = await saidUnusable(emit, () => checkAgent(primary, box));
  return { agent, ...(wrap ? { wrap } : {}) };
}

async function saidUnusable(emit: RunEventSink, setUp: () => Promise<AgentSetup>): Promise<AgentSetup> {
  try {
    return await setUp();
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
