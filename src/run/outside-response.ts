/**
 * What every runner does when the world outside ended an attempt (the
 * attempt already rolled back and not counted): an agent that cannot log in
 * or start stops the run at once (exit 4) with one sentence saying which
 * agent, what failed and how to fix it; an API outage is waited out (or
 * handed to a fallback agent) up to `--outage-wait`, then the run stops
 * (exit 3); a rate or usage limit waits as it always has. Shared by the
 * sequential, parallel and goal runners and the worker role, so each says
 * and does the same.
 */
import type { AgentSetup } from '../agents/adapter.js';
import { probeAgentApi } from '../agents/api-probe.js';
import { outsideSentence } from '../agents/one-shot.js';
import { ExitCode } from '../core/errors.js';
import {
  describeOutage,
  type OutsideFailure,
  responseTo,
  unusableSentence,
} from '../core/outside-failure.js';
import type { RunEventSink } from '../events/run-event.js';
import { AgentRotation } from './agent-rotation.js';
import { DEFAULT_OUTAGE_WAIT, outageTiming } from './run-limits.js';

/** Where an attempt ran, for the events about it. */
export interface AttemptPlace {
  iteration: number;
  storyId?: string;
}

export type OutsideOutcome =
  | { kind: 'retry' }
  | { kind: 'stop'; reason: 'agent-unusable' | 'outage-wait'; exitCode: ExitCode; message: string };

/** The agents a run rotates through, with outages waited out as the limits say and probed where ralph can. */
export function runAgentRotation(run: {
  agent: AgentSetup;
  fallbackAgents?: readonly AgentSetup[];
  limits: { rateLimitBackoffMs: number; outageWaitMs?: number };
  now: () => Date;
}): AgentRotation {
  return new AgentRotation({
    primary: run.agent,
    fallbacks: run.fallbackAgents ?? [],
    backoffMs: run.limits.rateLimitBackoffMs,
    now: run.now,
    outage: outageTiming(run.limits.outageWaitMs ?? DEFAULT_OUTAGE_WAIT * 1000),
    probe: probeAgentApi,
  });
}

/**
 * Stops, or waits out, an outside failure that is not a rate limit.
 * `agent` is the one that failed.
 */
export async function respondToOutside(
  run: { emit: RunEventSink; agents: AgentRotation; signals: readonly AbortSignal[] },
  failure: OutsideFailure,
  agent: AgentSetup,
  at: AttemptPlace,
): Promise<OutsideOutcome> {
  const name = agent.adapter.name;
  if (responseTo(failure.cause) === 'stop') {
    const said = unusableSentence(failure, {
      agent: name,
      login: agent.adapter.login,
      install: agent.adapter.install,
      binaryPath: agent.binaryPath,
    });
    run.emit({ type: 'agent-unusable', agent: name, ...said });
    return {
      kind: 'stop',
      reason: 'agent-unusable',
      exitCode: ExitCode.AgentUnusable,
      // The same sentence a hook prompt, the PRD writer and doctor --live give for this end.
      message: outsideSentence(failure, agent),
    };
  }
  const outage = `${name} ${describeOutage(failure.cause)}`;
  const since = Date.now();
  const answer = await run.agents.outage(
    failure,
    {
      switched: (from, to, reason) => run.emit({ type: 'agent-switched', from, to, reason }),
      waiting: (wait) =>
        run.emit({
          type: 'waiting',
          reason: 'outage',
          message: `${outage}: ${wait.message}`,
          until: wait.until.toISOString(),
          waitMs: wait.waitMs,
          agent: name,
          ...(at.storyId !== undefined ? { storyId: at.storyId } : {}),
        }),
    },
    ...run.signals,
  );
  if (answer === 'retry') return { kind: 'retry' };
  const waited = Math.round((Date.now() - since) / 60_000);
  return {
    kind: 'stop',
    reason: 'outage-wait',
    exitCode: ExitCode.LimitReached,
    message: `stopped with work left: ${outage} (${failure.message.trim().split('\n')[0]}) and it did not come back within --outage-wait${waited > 0 ? ` (waited ${waited} min)` : ''}; run again to resume`,
  };
}

/** Waits out a rate or usage limit (or hands over to a fallback agent), saying so as `rate-limited`, or `waiting` for a quota. */
export async function respondToLimit(
  run: { emit: RunEventSink; agents: AgentRotation; signals: readonly AbortSignal[] },
  limit: { message: string; resetsAt?: string; quota?: boolean },
  agent: AgentSetup,
  at: AttemptPlace,
): Promise<void> {
  const { quota, ...said } = limit;
  await run.agents.rateLimited(
    said,
    {
      switched: (from, to, reason) => run.emit({ type: 'agent-switched', from, to, reason }),
      waiting: (waitMs) =>
        run.emit(
          quota
            ? {
                type: 'waiting',
                reason: 'quota',
                message: `${agent.adapter.name} is out of quota: ${said.message}`,
                until: new Date(Date.now() + waitMs).toISOString(),
                waitMs,
                agent: agent.adapter.name,
                ...(at.storyId !== undefined ? { storyId: at.storyId } : {}),
              }
            : { type: 'rate-limited', ...at, waitMs, ...said },
        ),
    },
    ...run.signals,
  );
}
