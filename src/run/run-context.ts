import type { AgentSetup } from '../agents/adapter.js';
import type { CommandWrapper } from '../agents/spawn-command.js';
import type { ExitCode } from '../core/errors.js';
import type { RunEventSink, StopReason } from '../events/run-event.js';
import type { TaskSource } from '../sources/task-source.js';
import type { Config } from '../state/config.js';
import type { RunPaths } from '../state/layout.js';
import type { LockHandle } from '../state/lock.js';
import type { SetupEnvironment } from './worktree-setup.js';

export interface LoopLimits {
  /** Iterations this run may use; default: stories remaining + 5. */
  maxIterations?: number;
  timeoutMs: number;
  idleTimeoutMs: number;
  /** Attempts per story before it is parked. */
  maxRetries: number;
  maxCostUsd?: number;
  /** Park a story once its attempts together have cost this much (`--max-cost-per-story`). */
  maxCostPerStoryUsd?: number;
  /** First wait after a rate limit; doubles on each further one. */
  rateLimitBackoffMs: number;
  /** How long an outage (API unreachable, overloaded, erroring) is waited out before the run stops (`--outage-wait`). */
  outageWaitMs?: number;
  /** A heartbeat while the agent is silent, this often; absent for none. */
  heartbeatMs?: number;
}

export interface LoopOptions {
  /** The git work tree the agent works in. */
  cwd: string;
  name: string;
  source: TaskSource;
  progressPath: string;
  runDir: string;
  config: Config;
  agent: AgentSetup;
  /** Agents to switch to, in order, when the current one hits a rate or usage limit. */
  fallbackAgents?: AgentSetup[];
  limits: LoopLimits;
  onlyStoryId?: string;
  resumeFromId?: string;
  promptTemplate: string;
  /** Aborted on the first Ctrl-C: finish the iteration, then stop. */
  stopSignal: AbortSignal;
  /** Aborted on the second Ctrl-C: kill the agent now. */
  killSignal: AbortSignal;
  emit: RunEventSink;
  /** Stash the user's uncommitted changes instead of refusing to start (`--allow-dirty`). */
  allowDirty?: boolean;
  /** What the worktree's setup command made there: named in the prompt as environment, not work. */
  environment?: SetupEnvironment;
  /**
   * The run's lock, when the caller took it before preparing the workspace
   * (nothing may change before it is held); the caller releases it. Without
   * one the loop takes and releases the lock itself.
   */
  lock?: LockHandle;
  /** Rewrites every command the run starts for the agent (agent, gates, hooks): a sandbox. */
  wrap?: CommandWrapper;
  /** Steering while the loop runs (the TUI's `+`/`-`); read before every iteration. */
  steering?: LoopSteering;
  /** `--wait`: when only stories waiting for answers are left, wait for the answers instead of stopping. */
  waitForAnswers?: boolean;
  now?: () => Date;
}

export interface LoopSteering {
  /**
   * The iteration limit of this run, replacing `limits.maxIterations` and the
   * default; the steerer keeps it above the iterations already run.
   */
  maxIterations?: number;
}

/** What every step of one run shares. */
export interface RunContext extends LoopOptions {
  files: RunPaths;
  now: () => Date;
}

/** The run's context in the checkout its workspace opened: the task and progress files there. */
export function contextIn(
  options: Omit<LoopOptions, 'cwd' | 'source' | 'progressPath'>,
  workspace: { cwd: string; source: TaskSource; progressPath: string },
  run: { files: RunPaths; now: () => Date },
): RunContext {
  return {
    ...options,
    cwd: workspace.cwd,
    source: workspace.source,
    progressPath: workspace.progressPath,
    ...run,
  };
}

/** How a story run ended: its exit code and why. */
export interface LoopOutcome {
  exitCode: ExitCode;
  reason: StopReason;
}
