import type { AgentSetup } from '../agents/adapter.js';
import type { Stop } from '../core/next-step.js';
import type { OutsideFailure } from '../core/outside-failure.js';
import type { RunEventSink, StopReason } from '../events/run-event.js';
import type { AgentRotation } from '../run/agent-rotation.js';
import { respondToLimit, respondToOutside } from '../run/outside-response.js';

/** A rate limit one attempt (or a race's resolution) met. */
interface LimitHit {
  iteration: number;
  rateLimit?: { message: string; resetsAt?: string };
  quota?: boolean;
}

/**
 * What holds a parallel run's new starts: a rate limit or an outage being
 * waited out (or handed to a fallback agent); running attempts go on. An
 * agent that cannot be used, or an outage past --outage-wait, leaves the
 * stop the run ends with once its running work is over.
 */
export class StartHolds {
  private readonly waits = new Set<Promise<void>>();
  /** The outside stop the run ends with, once found. */
  stopFor: Stop<StopReason> | null = null;

  constructor(
    private readonly agents: AgentRotation,
    private readonly signals: readonly AbortSignal[],
    /** Stops every attempt at once (each given back): an agent that cannot be used. */
    private readonly abortAll: () => void,
  ) {}

  get holding(): boolean {
    return this.waits.size > 0;
  }

  /** Resolves when one hold ends. */
  any(): Promise<void> {
    return Promise.race(this.waits);
  }

  all(): Promise<void>[] {
    return [...this.waits];
  }

  /** A rate limit: new attempts go to the next fallback agent, or wait; running ones go on. */
  limit(emit: RunEventSink, storyId: string, hit: LimitHit, agent: AgentSetup): void {
    const limit = {
      message: hit.rateLimit?.message ?? 'rate limited',
      ...(hit.rateLimit?.resetsAt ? { resetsAt: hit.rateLimit.resetsAt } : {}),
      ...(hit.quota ? { quota: true } : {}),
    };
    this.hold(respondToLimit(this.outside(emit), limit, agent, { iteration: hit.iteration, storyId }));
  }

  /**
   * An agent that cannot be used stops every attempt at once and ends the
   * run; an outage holds new starts until the API is back (or goes to a
   * fallback agent), and ends the run past --outage-wait.
   */
  outage(
    emit: RunEventSink,
    storyId: string,
    hit: { iteration: number; failure: OutsideFailure },
    agent: AgentSetup,
  ): void {
    if (this.stopFor !== null) return;
    const at = { iteration: hit.iteration, storyId };
    const answered = respondToOutside(this.outside(emit), hit.failure, agent, at).then((answer) => {
      if (answer.kind !== 'stop' || this.stopFor !== null) return;
      this.stopFor = {
        kind: 'stop',
        reason: answer.reason,
        exitCode: answer.exitCode,
        message: answer.message,
      };
      if (answer.reason === 'agent-unusable') this.abortAll();
    });
    this.hold(answered);
  }

  private outside(emit: RunEventSink) {
    return { emit, agents: this.agents, signals: this.signals };
  }

  private hold(work: Promise<void>): void {
    this.waits.add(work);
    void work.finally(() => this.waits.delete(work));
  }
}
