import type { AgentSetup } from '../agents/adapter.js';
import type { OutsideFailure } from '../core/outside-failure.js';
import { type OutageListener, type OutageTiming, waitOutOutage } from './outage-wait.js';
import { rateLimitWait, sleep } from './waits.js';

export interface RateLimit {
  message: string;
  resetsAt?: string;
}

export interface AgentRotationOptions {
  primary: AgentSetup;
  /** `agent.fallback`, in order. */
  fallbacks?: readonly AgentSetup[];
  /** First wait after a rate limit with every agent limited; doubles on each further one. */
  backoffMs: number;
  now: () => Date;
  /** How outages are waited out; without it an outage gives up at once. */
  outage?: OutageTiming;
  /** A cheap look at whether an agent's API can be reached (false: not yet). */
  probe?: (agent: AgentSetup) => Promise<boolean | undefined>;
}

/** What a loop tells its listeners while a rate limit is handled. */
export interface RateLimitListener {
  switched(from: string, to: string, reason: string): void;
  waiting(waitMs: number): void;
}

/**
 * The agents a loop may run and which one is up: a rate-limited agent hands
 * over to the next fallback at once; once every agent is limited, the loop
 * waits (until the reset time the agent gave, else an exponential backoff)
 * and starts again from the primary. Shared by every loop, so a story run
 * and a goal run treat limits the same way.
 */
export class AgentRotation {
  private readonly agents: readonly AgentSetup[];
  private index = 0;
  private streak = 0;
  /** When the current outage began (ms), and the waits made in it. */
  private outageSince: number | undefined;
  private readonly outageWaits = { count: 0 };

  constructor(private readonly options: AgentRotationOptions) {
    this.agents = [options.primary, ...(options.fallbacks ?? [])];
  }

  current(): AgentSetup {
    return this.agents[this.index] ?? this.options.primary;
  }

  /** An attempt ran without a rate limit or an outage: the next one starts the backoff afresh. */
  succeeded(): void {
    this.streak = 0;
    this.outageSince = undefined;
    this.outageWaits.count = 0;
  }

  /**
   * The current agent's API is out (unreachable, overloaded, erroring): a
   * fallback agent takes over at once; with none left, the run waits with a
   * capped exponential backoff, probing where it can, and starts again from
   * the primary. `gave-up` once the outage has lasted `outage.waitMs`.
   */
  async outage(
    failure: OutsideFailure,
    listener: OutageListener & { switched(from: string, to: string, reason: string): void },
    ...signals: AbortSignal[]
  ): Promise<'retry' | 'gave-up'> {
    const now = () => this.options.now().getTime();
    this.outageSince ??= now();
    const failed = this.current().adapter.name;
    if (this.index + 1 < this.agents.length) {
      this.index++;
      listener.switched(failed, this.current().adapter.name, failure.message);
      return 'retry';
    }
    this.index = 0;
    const timing = this.options.outage;
    if (timing === undefined) return 'gave-up';
    const { probe } = this.options;
    const primary = this.current();
    return waitOutOutage({
      failure,
      since: this.outageSince,
      streak: this.outageWaits,
      timing,
      now,
      ...(probe ? { probe: () => probe(primary) } : {}),
      listener,
      signals,
    });
  }

  /**
   * The current agent hit `limit`: switch to the next agent, or wait (waking
   * early when a signal aborts). Resolves when the next attempt may start.
   */
  async rateLimited(limit: RateLimit, listener: RateLimitListener, ...signals: AbortSignal[]): Promise<void> {
    const limited = this.current().adapter.name;
    if (this.index + 1 < this.agents.length) {
      // A fallback agent takes over at once; waiting is for when every agent is limited.
      this.index++;
      listener.switched(limited, this.current().adapter.name, limit.message);
      return;
    }
    this.index = 0;
    const waitMs = rateLimitWait(this.options.backoffMs, this.streak++, limit.resetsAt, this.options.now());
    listener.waiting(waitMs);
    await sleep(waitMs, ...signals);
  }
}
