import type { Config } from '../state/config.js';
import type { AgentSetup, PreflightContext } from './adapter.js';
import { resolveBinary } from './binary.js';
import { getAdapter } from './registry.js';

/**
 * The agents of `agent.fallback`, ready to take over when the primary one is
 * rate limited. One that is missing or cannot run here is left out with a
 * warning: a fallback must never stop a run from starting. These are the ones
 * whose binaries are found, not yet asked anything (`checkFallbackAgents` asks).
 */
export async function resolveFallbackAgents(
  config: Config,
  primary: AgentSetup,
  warn: (message: string) => void,
): Promise<AgentSetup[]> {
  const agents: AgentSetup[] = [];
  for (const provider of config.agent.fallback) {
    if (provider === primary.adapter.name) continue;
    const adapter = getAdapter(provider);
    if (!adapter) {
      warn(`fallback agent ${provider} is not supported; skipped`);
      continue;
    }
    const env: NodeJS.ProcessEnv = { ...process.env, ...(config.agent.env[provider] ?? {}) };
    const binaryPath = await resolveBinary(adapter.defaultBinary, env);
    if (!binaryPath) {
      warn(`fallback agent ${adapter.displayName} not found (${adapter.defaultBinary}); skipped`);
      continue;
    }
    agents.push({ adapter, binaryPath, extraArgs: config.agent.args[provider] ?? [], env });
  }
  return agents;
}

/** Those of `agents` whose preflight passes (inside the run's sandbox when there is one). */
export async function checkFallbackAgents(
  agents: readonly AgentSetup[],
  warn: (message: string) => void,
  box?: PreflightContext['box'],
): Promise<AgentSetup[]> {
  const ready: AgentSetup[] = [];
  for (const agent of agents) {
    const { adapter, binaryPath, env } = agent;
    const preflight = await adapter.preflight({
      binaryPath,
      env,
      isRoot: process.getuid?.() === 0,
      ...(box ? { box } : {}),
    });
    if (!preflight.ok) {
      warn(`fallback agent ${adapter.displayName} cannot run here: ${preflight.reason}; skipped`);
      continue;
    }
    ready.push(agent);
  }
  return ready;
}
