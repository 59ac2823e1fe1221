import type { AgentSetup } from '../agents/adapter.js';
import { outsideSentence, runAgentOnce } from '../agents/one-shot.js';
import type { CommandWrapper } from '../agents/spawn-command.js';
import type { HookExit } from './hooks-command.js';

export interface PromptHookOptions {
  prompt: string;
  /** The run's configured agent: the hook runs the same CLI, model and arguments. */
  agent: AgentSetup;
  cwd: string;
  /** The agent's raw stream goes here. */
  outputFile: string;
  timeoutMs: number;
  idleTimeoutMs: number;
  signal: AbortSignal;
  wrap?: CommandWrapper;
}

/**
 * Runs a `prompt:` hook as one fresh agent session; its whole process group
 * ends with it. An end the world outside caused (a refused login, the API
 * out) is said as a run says it.
 */
export async function runPromptHook(opts: PromptHookOptions): Promise<HookExit> {
  const { agent } = opts;
  const { run, collected, outside } = await runAgentOnce({
    agent,
    prompt: opts.prompt,
    cwd: opts.cwd,
    timeoutMs: opts.timeoutMs,
    idleTimeoutMs: opts.idleTimeoutMs,
    signal: opts.signal,
    ...(opts.wrap ? { wrap: opts.wrap } : {}),
    rawLogPath: opts.outputFile,
    probeSilence: false,
  });
  // Stopped because the run ended is said as such below; stopped by the world outside, in the run's own words.
  if (outside !== null && !opts.signal.aborted)
    return { exitCode: run.exitCode, error: outsideSentence(outside, agent) };
  switch (run.stopReason) {
    case 'spawn-error':
      return { exitCode: null, error: `could not start the agent: ${firstLine(run.stderr)}` };
    case 'timeout':
      return { exitCode: run.exitCode, error: 'killed: the agent reached the time limit' };
    case 'idle':
      return { exitCode: run.exitCode, error: 'killed: the agent was silent too long' };
    case 'aborted':
      return { exitCode: run.exitCode, error: 'killed: still running when the run ended' };
    case 'exited':
      break;
  }
  if (run.exitCode === 0 && collected.resultOk() === false) {
    return { exitCode: run.exitCode, error: 'the agent reported an error' };
  }
  if (run.exitCode !== 0) {
    const reason = firstLine(run.stderr);
    return { exitCode: run.exitCode, ...(reason ? { error: reason } : {}) };
  }
  return { exitCode: 0 };
}

const firstLine = (text: string): string => text.trim().split('\n')[0]?.slice(0, 300) ?? '';
