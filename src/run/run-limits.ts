import type { Config } from '../state/config.js';
import type { OutageTiming } from './outage-wait.js';
import type { LoopLimits } from './run-context.js';

/** The limit flags every loop command takes, in the units the user types (seconds, dollars). */
export interface LimitFlags {
  maxIterations?: number;
  timeout?: number;
  idleTimeout?: number;
  maxRetries?: number;
  maxCost?: number;
  maxCostPerStory?: number;
  /** `--outage-wait SECS`. */
  outageWait?: number;
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
    outageWaitMs: outageWaitMs(config, flags),
    heartbeatMs: heartbeatMs(),
  };
}

/** How long an API outage is waited out before the run stops (seconds), unless the config or a flag says. */
export const DEFAULT_OUTAGE_WAIT = 7200;

/** How long an API outage is waited out: `--outage-wait`, else `limits.outageWait` in the config. */
export function outageWaitMs(config: Config, flags: LimitFlags): number {
  return (flags.outageWait ?? config.limits.outageWait ?? DEFAULT_OUTAGE_WAIT) * 1000;
}

/**
 * How an outage is waited out. The first wait (30 s), its cap (10 min) and
 * how often a waiting run says so (a minute) come from
 * RALPH_OUTAGE_BACKOFF_MS, RALPH_OUTAGE_MAX_BACKOFF_MS and RALPH_WAIT_TICK_MS
 * (tests, impatient users).
 */
export function outageTiming(waitMs: number): OutageTiming {
  const positive = (name: string, fallback: number) => {
    const ms = envMs(name, fallback);
    return ms > 0 ? ms : fallback;
  };
  return {
    waitMs,
    backoffMs: positive('RALPH_OUTAGE_BACKOFF_MS', 30_000),
    capMs: positive('RALPH_OUTAGE_MAX_BACKOFF_MS', 10 * 60_000),
    tickMs: positive('RALPH_WAIT_TICK_MS', 60_000),
  };
}

/** A silent agent is reported every 30 s; RALPH_HEARTBEAT_MS changes it (0: never). */
export function heartbeatMs(): number {
  return envMs('RALPH_HEARTBEAT_MS', 30_000);
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
