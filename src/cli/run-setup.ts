import type { AgentSetup, LoopLimits } from '../loop/context.js';
import type { Config } from '../state/config.js';
import { type AgentChoice, setUpAgent } from './agent-setup.js';
import type { RunOptions } from './commands/run-options.js';
import { setUpFallbackAgents } from './fallback-agents.js';

/** What every loop command sets up the same way: the agent, its fallbacks, limits and on-complete wishes. */
export interface RunAgents {
  agent: AgentSetup;
  /** `agent.fallback`, ready to take over on a rate limit. */
  fallbackAgents: AgentSetup[];
}

export async function setUpRunAgents(
  config: Config,
  choice: AgentChoice,
  warn: (message: string) => void = (message) => process.stderr.write(`ralph: ${message}\n`),
): Promise<RunAgents> {
  const agent = await setUpAgent(config, choice);
  return { agent, fallbackAgents: await setUpFallbackAgents(config, agent, warn) };
}

/** The first wait after a rate limit; RALPH_RATE_LIMIT_BACKOFF_MS shortens it (tests, impatient users). */
export function rateLimitBackoffMs(): number {
  const ms = envMs('RALPH_RATE_LIMIT_BACKOFF_MS', 60_000);
  return ms > 0 ? ms : 60_000;
}

/** A duration in milliseconds from the environment, else the default. */
export function envMs(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** `--push` / `--pr`, else the config's `onComplete`. */
export function onCompleteWanted(
  opts: { push?: boolean; pr?: boolean },
  config: Config,
): { push: boolean; createPR: boolean } {
  return { push: opts.push ?? config.onComplete.push, createPR: opts.pr ?? config.onComplete.createPR };
}

/** The run's limits: flags over config. */
export function loopLimits(config: Config, opts: RunOptions): LoopLimits {
  const limits = config.limits;
  return {
    ...((opts.maxIterations ?? limits.maxIterations)
      ? { maxIterations: opts.maxIterations ?? limits.maxIterations ?? 0 }
      : {}),
    timeoutMs: (opts.timeout ?? limits.timeout) * 1000,
    idleTimeoutMs: (opts.idleTimeout ?? limits.idleTimeout) * 1000,
    maxRetries: opts.maxRetries ?? limits.maxRetries,
    ...((opts.maxCost ?? limits.maxCost) ? { maxCostUsd: opts.maxCost ?? limits.maxCost ?? 0 } : {}),
    rateLimitBackoffMs: rateLimitBackoffMs(),
  };
}
