/** One unattended agent run for the PRD writer, through the same runner and adapter as the loop. */

import type { AgentSetup } from '../agents/adapter.js';
import type { AgentEvent } from '../agents/agent-event.js';
import { runAgent } from '../agents/run-agent.js';

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
  const invocation = setup.adapter.buildInvocation({
    prompt: opts.prompt,
    ...(setup.model ? { model: setup.model } : {}),
    extraArgs: setup.extraArgs,
  });
  const errors: string[] = [];
  let resultOk: boolean | undefined;
  let resultText: string | undefined;
  const run = await runAgent({
    binaryPath: setup.binaryPath,
    adapter: setup.adapter,
    invocation,
    cwd: opts.cwd,
    env: setup.env,
    timeoutMs: opts.timeoutMs,
    idleTimeoutMs: opts.idleTimeoutMs,
    ...(opts.signal ? { signal: opts.signal } : {}),
    rawLogPath: opts.rawLogPath,
    onEvent: (event) => {
      if (event.type === 'error') errors.push(event.message);
      if (event.type === 'result') {
        resultOk = event.ok;
        resultText = event.text;
      }
      opts.onEvent?.(event);
    },
  });
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
