/**
 * One tiny real request through an agent CLI, as `ralph doctor --live` and
 * the TUI's recheck make it: the agent is asked to answer one word, in an
 * empty folder of its own, through the one-shot an attempt runs on
 * (`runAgentOnce`), and its end is read as an attempt's is. It tells
 * whether the login works and the API answers; it costs what one short turn
 * of the agent's model costs (reported).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutsideCause } from '../core/outside-failure.js';
import type { AgentSetup } from './adapter.js';
import { runAgentOnce } from './one-shot.js';

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
  let cost: number | undefined;
  let answered = false;
  try {
    const { run, collected, outside } = await runAgentOnce({
      agent,
      prompt: LIVE_PROMPT,
      cwd: dir,
      timeoutMs,
      idleTimeoutMs: timeoutMs,
      rawLogPath: join(dir, 'stream.jsonl'),
      killGraceMs: 1000,
      probeSilence: false,
      onEvent: (event) => {
        if (event.type === 'assistant-text') answered = true;
        if (event.type === 'result' && event.costUsd !== undefined) cost = event.costUsd;
        if (event.type === 'usage' && event.costUsd !== undefined) cost = (cost ?? 0) + event.costUsd;
      },
    });
    const spent = cost === undefined ? {} : { costUsd: cost };
    if (outside !== null) return { ok: false, durationMs: run.durationMs, ...spent, failure: outside };
    if (run.stopReason !== 'exited' || run.exitCode !== 0 || collected.resultOk() === false || !answered) {
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
