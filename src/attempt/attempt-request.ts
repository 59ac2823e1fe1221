import type { AgentSetup } from '../agents/adapter.js';
import type { CollectedUsage } from '../agents/agent-collector.js';
import type { AgentEvent } from '../agents/agent-event.js';
import type { CommandWrapper } from '../agents/spawn-command.js';
import type { AgentRunFacts, AttemptShape, GateResult } from '../core/attempt-facts.js';

/** What the kernel reports as it goes; each loop tags these with its own iteration, story or step. */
export type AttemptEvent =
  | { type: 'agent-event'; event: AgentEvent }
  | {
      type: 'agent-exited';
      stopReason: string;
      exitCode: number | null;
      durationMs: number;
      stderrTail: string;
    }
  | { type: 'tool-file-restored'; path: string }
  /** Something the attempt did outside its work (a ref, `.ralph/`, a link) was undone: `what` says it. */
  | { type: 'attempt-undone'; what: string }
  /** The agent has said nothing for `silentMs` (a heartbeat, every `heartbeatMs` of silence). */
  | { type: 'agent-silent'; silentMs: number; elapsedMs: number }
  | { type: 'check-started'; command: string }
  | ({ type: 'check-finished' } & GateResult);

/**
 * One attempt in one checkout. The kernel holds no state of its own: the
 * loop around it records what it must survive a kill through the callbacks,
 * which the kernel awaits before going on.
 */
/** The part of a request every runner fills alike from its context: limits, gates, how to stop and wrap. */
export type AttemptBounds = Pick<
  AttemptRequest<unknown, unknown>,
  'timeoutMs' | 'idleTimeoutMs' | 'heartbeatMs' | 'gates' | 'wrap' | 'killSignal'
>;

/** What a runner's context holds that `attemptBounds` reads. */
export interface BoundsSource {
  limits: { timeoutMs: number; idleTimeoutMs: number; heartbeatMs?: number | undefined };
  config: { checks: readonly string[] };
  killSignal: AbortSignal;
  wrap?: CommandWrapper | undefined;
}

/** The same bounds for a story's attempt, a goal iteration and a race's resolution. */
export function attemptBounds(ctx: BoundsSource): AttemptBounds {
  return {
    timeoutMs: ctx.limits.timeoutMs,
    idleTimeoutMs: ctx.limits.idleTimeoutMs,
    ...(ctx.limits.heartbeatMs ? { heartbeatMs: ctx.limits.heartbeatMs } : {}),
    gates: ctx.config.checks,
    killSignal: ctx.killSignal,
    ...(ctx.wrap ? { wrap: ctx.wrap } : {}),
  };
}

export interface AttemptRequest<Said, Verdict> {
  /** The git work tree the agent works in: a PRD's worktree, a story's, or the main checkout. */
  cwd: string;
  prompt: string;
  agent: AgentSetup;
  timeoutMs: number;
  idleTimeoutMs: number;
  /** How long the agent may be silent before each heartbeat; 0 or absent for none. */
  heartbeatMs?: number;
  /** The user's gate commands (`checks:` in the config). */
  gates: readonly string[];
  /** Rewrites the agent's and the gates' commands before they start (a sandbox). */
  wrap?: CommandWrapper;
  /** Aborted to stop the agent (and a running gate) at once. */
  killSignal: AbortSignal;
  /** Where the agent's raw stream is kept verbatim. */
  rawLogPath: string;
  /** Tracked files the tool owns: whatever the agent did to them is undone. */
  toolPaths: readonly string[];
  /** Paths that never count as the agent's uncommitted work. */
  isToolPath: (path: string) => boolean;
  /** Commit the restored tool files with this message (else they are left for the caller's record). */
  commitRestoredAs?: string;
  shape: AttemptShape<Said, Verdict>;
  /**
   * HEAD is known and nothing has run yet: record the attempt as started,
   * with its token (`RALPH_ATTEMPT` in the agent's environment), which finds
   * the attempt's processes after a kill -9 even before `spawned` (see `stopLeftovers`).
   */
  begin(headBefore: string, token: string): Promise<void>;
  /** The agent is running: record its pid so that a run killed with -9 can stop it on resume. */
  spawned(pid: number): Promise<void>;
  /** The agent has stopped: record its spend before the slower steps. */
  agentDone(done: { agent: AgentRunFacts; usage: CollectedUsage; said: Said }): Promise<void>;
  emit(event: AttemptEvent): void;
}
