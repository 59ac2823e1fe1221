import type { AgentAdapter, Invocation } from './adapter.js';
import type { AgentEvent } from './agent-event.js';
import type { CommandWrapper } from './spawn-command.js';

/** Why the run ended: on its own, or stopped by ralph. */
export type StopReason = 'exited' | 'timeout' | 'idle' | 'aborted' | 'spawn-error';

export type AdapterLike = Pick<AgentAdapter, 'createParser'>;

export interface RunAgentOptions {
  binaryPath: string;
  adapter: AdapterLike;
  invocation: Invocation;
  cwd: string;
  /** The child's complete environment; `invocation.env` is laid over it. */
  env: NodeJS.ProcessEnv;
  /** Wall-clock limit; 0 or Infinity for none. */
  timeoutMs: number;
  /** Limit on silence (no stdout or stderr); 0 or Infinity for none. */
  idleTimeoutMs: number;
  signal?: AbortSignal;
  /** Every stdout byte is appended here verbatim; directories are created. */
  rawLogPath: string;
  /** Called synchronously for each event; a throw stops the agent and rejects the run. */
  onEvent: (event: AgentEvent) => void;
  /** Called with each complete stderr line (some CLIs report their API retries only there). */
  onStderrLine?: (line: string) => void;
  /** Rewrites the command before it starts (a sandbox). */
  wrap?: CommandWrapper;
  /** Called once the agent is running, with its pid (also its process group id). */
  onSpawn?: (pid: number) => void;
  /** A longer stdout line is reported as `garbage` with a preview. Default 10 MiB. */
  maxLineBytes?: number;
  /** Between SIGTERM and SIGKILL to the process group. Default 3 s. */
  killGraceMs?: number;
  /** How much of stderr's end to keep. Default 64 KiB. */
  stderrMaxChars?: number;
}

export interface AgentRunResult {
  exitCode: number | null;
  /** The signal that ended the agent process, e.g. `SIGTERM` after a timeout. */
  signal: string | null;
  stopReason: StopReason;
  /** The end of stderr; for a spawn error, the reason it failed. */
  stderr: string;
  durationMs: number;
  /** Set when writing the raw log failed; the run itself went on. */
  rawLogError?: string;
}
