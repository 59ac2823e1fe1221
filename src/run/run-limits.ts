import type { Config } from '../state/config.js';
import type { LoopLimits } from './run-context.js';

/** The limit flags every loop command takes, in the units the user types (seconds, dollars). */
export interface LimitFlags {
  maxIterations?: number;
  timeout?: number;
  idleTimeout?: number;
  maxRetries?: number;
  maxCost?: number;
  maxCostPerStory?: number;
}

/** How long one agent may run, and stay silent: flags over config, in milliseconds. */
export interface AgentTimeLimits {
  timeoutMs: number;
  idleTimeoutMs: number;
}

/** The one place a limit in seconds becomes milliseconds. */
export function agentTimeLimits(config: Config, flags: LimitFlags = {}): AgentTimeLimits {
  return {
    timeoutMs: (flags.timeout ?? config.limits.timeout) * 1000,
    idleTimeoutMs: (flags.idleTimeout ?? config.limits.idleTimeout) * 1000,
  };
}

/** The spend limit of a run: `--max-cost`, else the config's. */
export function maxCostUsd(config: Config, flags: LimitFlags): number | undefined {
  return flags.maxCost ?? config.limits.maxCost ?? undefined;
}

/** A story run's limits: flags over config. */
export function loopLimits(config: Config, flags: LimitFlags): LoopLimits {
  const maxIterations = flags.maxIterations ?? config.limits.maxIterations;
  const maxCost = maxCostUsd(config, flags);
  const perStory = flags.maxCostPerStory ?? config.limits.maxCostPerStory ?? undefined;
  return {
    ...(maxIterations ? { maxIterations } : {}),
    ...agentTimeLimits(config, flags),
    maxRetries: flags.maxRetries ?? config.limits.maxRetries,
    ...(maxCost ? { maxCostUsd: maxCost } : {}),
    ...(perStory ? { maxCostPerStoryUsd: perStory } : {}),
    rateLimitBackoffMs: rateLimitBackoffMs(),
  };
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
