/** One unattended agent run for the PRD writer, through the same one-shot and adapter as the loop. */

import type { AgentSetup } from '../agents/adapter.js';
import type { AgentEvent } from '../agents/agent-event.js';
import { outsideSentence, runAgentOnce } from '../agents/one-shot.js';

export interface HeadlessOptions {
  setup: AgentSetup;
  cwd: string;
  prompt: string;
  rawLogPath: string;
  timeoutMs: number;
  idleTimeoutMs: number;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
}

/** `failure` is set when the agent itself did not finish properly (crash, API error, timeout). */
export interface HeadlessRun {
  failure?: string;
}

export async function runHeadless(opts: HeadlessOptions): Promise<HeadlessRun> {
  const { setup } = opts;
  const errors: string[] = [];
  let resultText: string | undefined;
  const { run, collected, outside } = await runAgentOnce({
    agent: setup,
    prompt: opts.prompt,
    cwd: opts.cwd,
    timeoutMs: opts.timeoutMs,
    idleTimeoutMs: opts.idleTimeoutMs,
    ...(opts.signal ? { signal: opts.signal } : {}),
    rawLogPath: opts.rawLogPath,
    probeSilence: false,
    onEvent: (event) => {
      if (event.type === 'error') errors.push(event.message);
      if (event.type === 'result') resultText = event.text;
      opts.onEvent?.(event);
    },
  });
  // A refused login or an API out reads as it does in a run: which agent, what failed, how to fix it.
  if (outside !== null && !opts.signal?.aborted) return { failure: outsideSentence(outside, setup) };
  const resultOk = collected.resultOk();
  const detail = (errors.at(-1) ?? (resultOk === false ? resultText : undefined) ?? run.stderr.trim())
    .split('\n')
    .slice(-5)
    .join('\n');
  if (run.stopReason !== 'exited') {
    const why = {
      timeout: 'hit the time limit',
      idle: 'went silent past the idle limit',
      aborted: 'was stopped',
      'spawn-error': 'could not be started',
    }[run.stopReason];
    return { failure: `${setup.adapter.displayName} ${why}${detail ? `: ${detail}` : ''}` };
  }
  if (run.exitCode !== 0 || resultOk === false) {
    return {
      failure: `${setup.adapter.displayName} exited with ${run.exitCode ?? run.signal}${detail ? `: ${detail}` : ''}`,
    };
  }
  return {};
}
