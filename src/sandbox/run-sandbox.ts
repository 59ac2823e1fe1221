/**
 * A run's sandbox from its options and config: `--sandbox` / `--no-sandbox`,
 * else `sandbox.enabled`. Asked for and not to be had, it refuses before
 * anything is written — never a silent run without it.
 */
import path from 'node:path';
import type { AgentSetup } from '../agents/adapter.js';
import type { CommandWrapper } from '../agents/spawn-command.js';
import { UsageError } from '../core/errors.js';
import type { Config } from '../state/config.js';
import { sandboxSettings } from '../state/config-schema.js';
import { PROVIDERS, type Provider } from '../state/providers.js';
import { findSandboxTool, type SandboxTool, sandboxKindFor, unavailableSentence } from './sandbox-tool.js';
import { createSandboxWrapper } from './sandbox-wrapper.js';

/** The command line's say: `--sandbox` true, `--no-sandbox` false, neither undefined. */
export interface SandboxChoice {
  sandbox?: boolean;
}

export const sandboxWanted = (choice: SandboxChoice, config: Config): boolean =>
  choice.sandbox ?? sandboxSettings(config).enabled;

/** The sandbox a run would start its agent in, for showing (the TUI's 🔒): `{ sandbox: 'bwrap' }`, or `{}`. */
export function sandboxOf(choice: SandboxChoice, config: Config): { sandbox?: string } {
  if (!sandboxWanted(choice, config)) return {};
  return { sandbox: sandboxKindFor(process.platform) ?? 'sandbox' };
}

/** The sandbox tool when one is asked for, else null; a usage error (exit 2) when it cannot be had here. */
export function requireSandbox(choice: SandboxChoice, config: Config): SandboxTool | null {
  if (!sandboxWanted(choice, config)) return null;
  const found = findSandboxTool();
  if (found.ok) return found.tool;
  const sentence = unavailableSentence(found);
  throw new UsageError(
    choice.sandbox === true
      ? sentence
      : sentence
          .replace(/^--sandbox/, 'sandbox.enabled in .ralph/config.yaml')
          .replace(/without --sandbox$/, 'with --no-sandbox'),
  );
}

const isProvider = (name: string): name is Provider => (PROVIDERS as readonly string[]).includes(name);

export interface SandboxedRun {
  /** The project root. */
  root: string;
  /** `.ralph/runs/<name>`. */
  runDir: string;
  /** The agent and its fallbacks. */
  agents: readonly AgentSetup[];
}

/**
 * The run's wrapper, putting every agent, gate and hook in the sandbox;
 * undefined when none is asked for. `prepare: false` for a dry run, which
 * describes commands and makes nothing.
 */
export function runSandbox(
  choice: SandboxChoice,
  config: Config,
  run: SandboxedRun,
  options: { prepare?: boolean } = {},
): CommandWrapper | undefined {
  const tool = requireSandbox(choice, config);
  if (tool === null) return undefined;
  const providers = [...new Set(run.agents.map((a) => a.adapter.name))].filter(isProvider);
  const sandbox = sandboxSettings(config);
  return createSandboxWrapper(
    tool,
    {
      root: run.root,
      runDir: run.runDir,
      providers,
      binaries: run.agents.map((a) => a.binaryPath).filter((b) => path.isAbsolute(b)),
      // What the user configured for an agent is the agent's to see.
      env: [...sandbox.env, ...providers.flatMap((p) => Object.keys(config.agent.env[p] ?? {}))],
      allowRead: sandbox.allowRead,
      allowWrite: sandbox.allowWrite,
      network: sandbox.network,
    },
    options,
  );
}
