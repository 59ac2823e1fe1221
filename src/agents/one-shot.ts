/**
 * One agent run, start to end, the same way for every caller: an attempt
 * (`attempt/run-attempt.ts`), a `prompt:` hook (`run/hooks-prompt.ts`), the
 * PRD writer (`prd-writer/headless.ts`) and `ralph doctor --live`
 * (`agents/live-check.ts`). It starts the CLI through `runAgent` (the
 * run's wrapper, its own process group, time limits, the raw stream kept),
 * collects what it said and spent, stops it early when its own retries
 * show the API out or the login refused, and classifies its end as far as
 * the world outside goes, so a refused login reads the same everywhere.
 */

import {
  describeOutage,
  type OutsideFailure,
  responseTo,
  unusableSentence,
} from '../core/outside-failure.js';
import type { AgentSetup } from './adapter.js';
import { type CollectedRun, collectAgentRun } from './agent-collector.js';
import type { AgentEvent } from './agent-event.js';
import { probeAgentApi } from './api-probe.js';
import { classifyAgentEnd } from './classify-end.js';
import { watchOutside } from './outside-watch.js';
import { runAgent } from './run-agent.js';
import type { AgentRunResult } from './run-agent-types.js';
import type { CommandWrapper } from './spawn-command.js';

interface OneShotRequest {
  agent: AgentSetup;
  prompt: string;
  cwd: string;
  /** The agent's raw stream goes here. */
  rawLogPath: string;
  timeoutMs: number;
  idleTimeoutMs: number;
  signal?: AbortSignal;
  wrap?: CommandWrapper;
  /** Laid over the agent's own environment (an attempt's token). */
  env?: Record<string, string>;
  /** Each event as it comes, after it is collected. */
  onEvent?: (event: AgentEvent) => void;
  onSpawn?: (pid: number) => void;
  killGraceMs?: number;
  /**
   * A CLI that retries without a word (OpenCode) ends silent at the idle or
   * time limit when its API is out: probe the API then, and call the
   * silence the outage's when it cannot be reached. Default true.
   */
  probeSilence?: boolean;
}

interface OneShot {
  run: AgentRunResult;
  collected: CollectedRun;
  /** How the world outside ended the run (a refused login, a missing binary, the API out, a limit), or null. */
  outside: OutsideFailure | null;
}

export async function runAgentOnce(request: OneShotRequest): Promise<OneShot> {
  const { agent } = request;
  const early = new AbortController();
  const watch = watchOutside(() => early.abort());
  const collected = collectAgentRun((event) => {
    watch.onEvent(event);
    request.onEvent?.(event);
  });
  const signal = request.signal ? AbortSignal.any([request.signal, early.signal]) : early.signal;
  const run = await runAgent({
    binaryPath: agent.binaryPath,
    adapter: agent.adapter,
    invocation: agent.adapter.buildInvocation({
      prompt: request.prompt,
      ...(agent.model ? { model: agent.model } : {}),
      extraArgs: agent.extraArgs,
    }),
    cwd: request.cwd,
    env: request.env ? { ...agent.env, ...request.env } : agent.env,
    timeoutMs: request.timeoutMs,
    idleTimeoutMs: request.idleTimeoutMs,
    signal,
    ...(request.wrap ? { wrap: request.wrap } : {}),
    rawLogPath: request.rawLogPath,
    onEvent: collected.onEvent,
    onStderrLine: (line) => {
      const retry = agent.adapter.stderrRetry(line);
      if (retry) collected.onEvent(retry);
    },
    ...(request.onSpawn ? { onSpawn: request.onSpawn } : {}),
    ...(request.killGraceMs !== undefined ? { killGraceMs: request.killGraceMs } : {}),
  });
  const end = collected.end();
  const outside =
    watch.stopped() ??
    classifyAgentEnd(
      { stopReason: run.stopReason, exitCode: run.exitCode, stderrTail: run.stderr, ...end },
      agent.adapter.endHints,
    ) ??
    (request.probeSilence === false ? null : await silentOutage(run.stopReason, end.worked, agent)) ??
    null;
  return { run, collected, outside };
}

/** If the API never answered a silent agent anything and cannot be reached now, the silence was the outage's. */
async function silentOutage(
  stopReason: string,
  worked: boolean,
  agent: AgentSetup,
): Promise<OutsideFailure | undefined> {
  if (worked || (stopReason !== 'idle' && stopReason !== 'timeout')) return undefined;
  const reachable = await probeAgentApi(agent);
  if (reachable !== false) return undefined;
  const base = agent.adapter.apiBase(agent.env, agent.extraArgs);
  return {
    cause: 'unreachable',
    message: `no answer from the agent, and its API (${base}) cannot be reached`,
  };
}

/**
 * The one sentence for an outside end, wherever the agent ran: which agent,
 * what failed and, for one that cannot be used (a refused login, a binary
 * that cannot start), how to fix it, as a run's `agent-unusable` stop says.
 */
export function outsideSentence(failure: OutsideFailure, agent: AgentSetup): string {
  const name = agent.adapter.name;
  if (responseTo(failure.cause) === 'stop') {
    const help = {
      agent: name,
      login: agent.adapter.login,
      install: agent.adapter.install,
      binaryPath: agent.binaryPath,
    };
    const said = unusableSentence(failure, help);
    return `${said.message}; ${said.fix}`;
  }
  const what = responseTo(failure.cause) === 'outage' ? describeOutage(failure.cause) : 'is rate limited';
  return `${name} ${what}: ${failure.message.trim().split('\n')[0] ?? ''}`;
}
