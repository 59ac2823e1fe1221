/**
 * One tiny real request through an agent CLI, as `ralph doctor --live` and
 * the TUI's recheck make it: the agent is asked to answer one word, in an
 * empty folder of its own, and its end is read as an attempt's is. It tells
 * whether the login works and the API answers; it costs what one short turn
 * of the agent's model costs (reported).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutsideCause } from '../core/outside-failure.js';
import type { AgentSetup } from './adapter.js';
import type { ErrorEvent, RetryEvent } from './agent-event.js';
import { classifyAgentEnd } from './classify-end.js';
import { watchOutside } from './outside-watch.js';
import { runAgent } from './run-agent.js';

export const LIVE_PROMPT = 'This is a connectivity check. Reply with the single word OK and do nothing else.';

/** Why a live check failed: an outside cause, or an end the agent gave no reason for. */
export interface LiveProblem {
  cause: OutsideCause | 'no-answer';
  message: string;
}

export type LiveCheck =
  | { ok: true; durationMs: number; costUsd?: number }
  | { ok: false; durationMs: number; costUsd?: number; failure: LiveProblem };

export async function checkAgentLive(agent: AgentSetup, timeoutMs = 120_000): Promise<LiveCheck> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-live-'));
  const errors: ErrorEvent[] = [];
  const retries: RetryEvent[] = [];
  let answered = false;
  let resultFailed = false;
  let anyOutput = false;
  let cost: number | undefined;
  const early = new AbortController();
  const watch = watchOutside(() => early.abort());
  try {
    const run = await runAgent({
      binaryPath: agent.binaryPath,
      adapter: agent.adapter,
      invocation: agent.adapter.buildInvocation({
        prompt: LIVE_PROMPT,
        ...(agent.model ? { model: agent.model } : {}),
        extraArgs: agent.extraArgs,
      }),
      cwd: dir,
      env: agent.env,
      timeoutMs,
      idleTimeoutMs: timeoutMs,
      signal: early.signal,
      rawLogPath: join(dir, 'stream.jsonl'),
      onEvent: (event) => {
        anyOutput = true;
        watch.onEvent(event);
        if (event.type === 'error') errors.push(event);
        if (event.type === 'retry') retries.push(event);
        if (event.type === 'assistant-text') answered = true;
        if (event.type === 'result') {
          resultFailed ||= !event.ok;
          if (event.costUsd !== undefined) cost = event.costUsd;
        }
        if (event.type === 'usage' && event.costUsd !== undefined) cost = (cost ?? 0) + event.costUsd;
      },
      onStderrLine: (line) => {
        const retry = agent.adapter.stderrRetry(line);
        if (retry) watch.onEvent(retry);
      },
      killGraceMs: 1000,
    });
    const spent = cost === undefined ? {} : { costUsd: cost };
    const failure =
      watch.stopped() ??
      classifyAgentEnd(
        {
          stopReason: run.stopReason,
          exitCode: run.exitCode,
          stderrTail: run.stderr,
          errors,
          retries,
          resultFailed,
          anyOutput,
          worked: answered,
        },
        agent.adapter.endHints,
      );
    if (failure !== null) return { ok: false, durationMs: run.durationMs, ...spent, failure };
    if (run.stopReason !== 'exited' || run.exitCode !== 0 || resultFailed || !answered) {
      const why = run.stopReason !== 'exited' ? `stopped (${run.stopReason})` : `exited ${run.exitCode}`;
      const said = run.stderr.trim().split('\n').at(-1) ?? '';
      return {
        ok: false,
        durationMs: run.durationMs,
        ...spent,
        failure: { cause: 'no-answer', message: `the agent ${why}${said ? `: ${said}` : ''}` },
      };
    }
    return { ok: true, durationMs: run.durationMs, ...spent };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
