import type { AgentSetup } from '../agents/adapter.js';
import type { CommandWrapper } from '../agents/spawn-command.js';
import type { ExitCode } from '../core/errors.js';
import type { GoalStopReason, RunEventSink } from '../events/run-event.js';
import type { AnswerDesk } from '../run/answer-desk.js';
import type { Config } from '../state/config.js';
import type { LockHandle } from '../state/lock.js';
import type { GoalSpec } from './goal-spec.js';
import type { GoalRunFiles } from './progress-file.js';
import type { ProgressStore } from './progress-store.js';

export interface GoalLimits {
  /** Iterations this session may run. */
  maxIterations: number;
  timeoutMs: number;
  idleTimeoutMs: number;
  /** Failed iterations in a row (no valid result, dirty tree, failing check) before the run stops. */
  maxConsecutiveFailures: number;
  maxCostUsd?: number;
  /** First wait after a rate limit; doubles on each further one. */
  rateLimitBackoffMs: number;
  /** How long parallel hooks still running at the end are awaited before they are killed. */
  hookDrainMs: number;
  /** How long an API outage is waited out before the run stops (`--outage-wait`). */
  outageWaitMs?: number;
  /** A heartbeat while the agent is silent, this often; absent for none. */
  heartbeatMs?: number;
}

export interface GoalLoopOptions {
  /** The git work tree the agent works in: the goal run's worktree, or the project root. */
  cwd: string;
  spec: GoalSpec;
  /** `.ralph/runs/<name>/` */
  runDir: string;
  config: Config;
  agent: AgentSetup;
  /** Agents to switch to, in order, when the current one hits a rate or usage limit. */
  fallbackAgents?: AgentSetup[];
  limits: GoalLimits;
  promptTemplate: string;
  /** Aborted on the first Ctrl-C: finish the iteration, then stop. */
  stopSignal: AbortSignal;
  /** Aborted on the second Ctrl-C: kill the agent now. */
  killSignal: AbortSignal;
  /** Rewrites every command the run starts for the agent (agent, gates, hooks): a sandbox. */
  wrap?: CommandWrapper;
  emit: RunEventSink;
  /** `--force`: take the run's lock even from a run that looks alive. */
  force?: boolean;
  /**
   * The run's lock, when the caller took it before preparing the workspace
   * (nothing may change before it is held); the caller releases it. Without
   * one the loop takes and releases the lock itself.
   */
  lock?: LockHandle;
  /** Stash the user's uncommitted changes instead of refusing to start (`--allow-dirty`). */
  allowDirty?: boolean;
  /** `--wait`: when an iteration needs a person, wait for the answer instead of stopping. */
  waitForAnswers?: boolean;
  now?: () => Date;
}

/** What every step of one goal run shares. */
export interface GoalContext extends GoalLoopOptions {
  files: GoalRunFiles;
  now: () => Date;
  store: ProgressStore;
  /** The run's questions (`needs-human`) and the answers people give. */
  desk: AnswerDesk;
  /** The goal file relative to `cwd`, when it is inside the repository: a file the agent must not change. */
  goalFileInRepo?: string;
}

export interface GoalOutcome {
  exitCode: ExitCode;
  reason: GoalStopReason;
}
