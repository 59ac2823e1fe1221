import type { AgentSetup } from '../agents/adapter.js';
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

  constructor(private readonly options: AgentRotationOptions) {
    this.agents = [options.primary, ...(options.fallbacks ?? [])];
  }

  current(): AgentSetup {
    return this.agents[this.index] ?? this.options.primary;
  }

  /** An attempt ran without a rate limit: the next limit starts the backoff afresh. */
  succeeded(): void {
    this.streak = 0;
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
