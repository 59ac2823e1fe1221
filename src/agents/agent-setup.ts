import { AgentUnusableError, UsageError } from '../core/errors.js';
import type { Config } from '../state/config.js';
import { PROVIDERS, type Provider, ProviderSchema } from '../state/config-schema.js';
import type { AgentSetup, PreflightContext } from './adapter.js';
import { findBinary } from './binary.js';
import { binaryFix, onPath } from './preflight-binary.js';
import { adapterNames, getAdapter } from './registry.js';

/** The command-line choices that pick the agent (`--agent`, `--agent-path`, `--model`). */
export interface AgentChoice {
  agent?: string;
  agentPath?: string;
  model?: string;
}

/**
 * The agent to run: flag, then environment (RALPH_AGENT, RALPH_AGENT_PATH),
 * then config, then the adapter's default. Checks only that the binary
 * exists (else an `AgentUnusableError`, code `agent-missing`, naming the path
 * and the system's error); `setUpAgent` also runs the adapter's preflight for
 * headless runs.
 */
export async function resolveAgent(config: Config, choice: AgentChoice): Promise<AgentSetup> {
  const provider = parseProvider(choice.agent ?? process.env.RALPH_AGENT ?? config.agent.provider);
  const adapter = getAdapter(provider);
  if (!adapter) {
    throw new UsageError(
      `agent "${provider}" is not supported yet (available: ${adapterNames().join(', ')})`,
    );
  }
  const env: NodeJS.ProcessEnv = { ...process.env, ...(config.agent.env[provider] ?? {}) };
  const wanted =
    choice.agentPath ?? process.env.RALPH_AGENT_PATH ?? config.agent.path ?? adapter.defaultBinary;
  const found = await findBinary(wanted, env);
  if (!found.ok) {
    const missing = found.reason === 'not on PATH' || found.reason.includes('(ENOENT)');
    throw new AgentUnusableError(
      adapter.name,
      'not-startable',
      `${adapter.displayName} ${missing ? 'not found' : 'cannot be executed'}: ${wanted}${onPath(found.reason)}`,
      binaryFix(adapter.install),
      'agent-missing',
    );
  }
  const binaryPath = found.path;
  const model = choice.model ?? config.agent.model ?? undefined;
  return {
    adapter,
    binaryPath,
    ...(model ? { model } : {}),
    extraArgs: config.agent.args[provider] ?? [],
    env,
  };
}

/**
 * `resolveAgent` plus the adapter's preflight: what an unattended (headless)
 * run needs. An agent that cannot start or log in here is an `AgentUnusableError` (exit 4).
 */
export async function setUpAgent(config: Config, choice: AgentChoice): Promise<AgentSetup> {
  return checkAgent(await resolveAgent(config, choice));
}

/** The adapter's preflight for a resolved agent, inside the run's sandbox when there is one. */
export async function checkAgent(setup: AgentSetup, box?: PreflightContext['box']): Promise<AgentSetup> {
  const ready = await setup.adapter.checkReady({
    binaryPath: setup.binaryPath,
    env: setup.env,
    isRoot: process.getuid?.() === 0,
    ...(box ? { box } : {}),
  });
  if (!ready.ok) throw new AgentUnusableError(setup.adapter.name, ready.kind, ready.reason, ready.fix);
  return setup;
}

export function parseProvider(name: string): Provider {
  const parsed = ProviderSchema.safeParse(name);
  if (!parsed.success)
    throw new UsageError(`unknown agent "${name}" (choose one of ${PROVIDERS.join(', ')})`);
  return parsed.data;
}
