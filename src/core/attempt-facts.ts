/**
 * What one attempt established, whatever the task: the facts the attempt
 * kernel (src/attempt) gathers in a checkout, and the shape a task gives
 * them — how to read the agent's words, when the gates are worth running,
 * and the verdict. Story and goal iterations differ only in their shape.
 */
import type { AgentText } from './agent-text.js';
import type { OutsideFailure } from './outside-failure.js';

export type AgentStopReason = 'exited' | 'timeout' | 'idle' | 'aborted' | 'spawn-error';

export interface AgentRunFacts {
  stopReason: AgentStopReason;
  /** Null when the process was killed or never started. */
  exitCode: number | null;
  durationMs: number;
  /** The end of stderr; for a spawn error, why it failed. */
  stderrTail: string;
  /** The agent's own final result said success (false: it reported an error). Unknown when absent. */
  resultOk?: boolean;
  /** A rate or usage limit the agent reported. */
  rateLimit?: { message: string; resetsAt?: string };
  /**
   * What outside the agent's work ended the run (its login, binary, API or
   * limits), read from its stream, stderr and exit; absent when its end was its own.
   */
  outside?: OutsideFailure;
}

export interface GateResult {
  command: string;
  exitCode: number;
  durationMs: number;
  /** The last lines of combined stdout/stderr, fed back to the agent on failure. */
  outputTail: string;
}

/** Everything known before the gates run. */
export interface PreGateFacts<Said> {
  headBefore: string;
  agent: AgentRunFacts;
  /** What the agent said, as the task's shape reads it from its own assistant text. */
  said: Said;
  /** Commits made since `headBefore`, oldest first (after the tool's files were restored). */
  commits: readonly { sha: string; subject: string }[];
  /** Uncommitted paths left in the checkout, the tool's own files aside. */
  dirtyPaths: readonly string[];
}

export interface AttemptFacts<Said> extends PreGateFacts<Said> {
  /** The gate results in order (stopping at the first failure), or 'not-run' when the shape skipped them. */
  gates: readonly GateResult[] | 'not-run';
  /**
   * The run was told to stop at once (a second Ctrl-C, SIGTERM) while the
   * attempt ran: whatever failed after that (a gate killed mid-run) is not
   * the task's fault.
   */
  interrupted: boolean;
}

/** How one kind of task reads and judges an attempt; every function is pure. */
export interface AttemptShape<Said, Verdict> {
  /** Reads what the agent said from its own assistant text. */
  read(text: AgentText): Said;
  /** Whether the gates are worth running (they are often the slowest step). */
  wantsGates(facts: PreGateFacts<Said>): boolean;
  judge(facts: AttemptFacts<Said>): Verdict;
}
