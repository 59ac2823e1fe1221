import { ExitCode } from '../core/errors.js';
import type { RunEvent } from '../events/run-event.js';
import type { PullRequestStory } from '../git/pull-request.js';
import { runGoalLoop } from '../goal/goal-runner.js';
import type { GoalSpec } from '../goal/goal-spec.js';
import { goalRunFiles, readGoalProgress } from '../goal/progress-file.js';
import type { GoalProgress } from '../goal/progress-schema.js';
import { onComplete } from '../run/on-complete.js';
import {
  agentTimeLimits,
  envMs,
  heartbeatMs,
  maxCostUsd,
  outageWaitMs,
  rateLimitBackoffMs,
} from '../run/run-limits.js';
import { enterPlace, workspaceMode } from '../run/workspace.js';
import { requireSandbox, runSandbox } from '../sandbox/run-sandbox.js';
import type { Config } from '../state/config.js';
import { runDir } from '../state/layout.js';
import type { LockHandle } from '../state/lock.js';
import { DEFAULT_GOAL_MAX_ITERATIONS, type GoalOptions } from './command-options.js';
import { holdRun } from './hold-run.js';
import { onCompleteWanted, setUpRunAgents } from './run-setup.js';

/** How long parallel hooks still running at the end are awaited before they are killed. */
const HOOK_DRAIN_MS = 60_000;

export interface GoalHandles {
  promptTemplate: string;
  emit: (event: RunEvent) => void;
  /** Finish the iteration, then stop. */
  stop: AbortSignal;
  /** Kill the agent now. */
  kill: AbortSignal;
}

/** The iteration limit of a goal run: the command line, the goal file, the config, else 50. */
export function goalMaxIterations(opts: GoalOptions, spec: GoalSpec, config: Config): number {
  return (
    opts.maxIterations ?? spec.maxIterations ?? config.limits.maxIterations ?? DEFAULT_GOAL_MAX_ITERATIONS
  );
}

/**
 * One goal run, whoever watches it, set up as `ralph run` sets up a PRD's:
 * the agent and its fallbacks, the workspace (the run's worktree
 * `.ralph/worktrees/<name>/` on `ralph/<name>`, a branch, or in place), the
 * loop, then push and pull request when the goal is complete.
 */
export async function executeGoal(
  root: string,
  config: Config,
  spec: GoalSpec,
  opts: GoalOptions,
  run: GoalHandles,
): Promise<number> {
  // A sandbox asked for and not to be had refuses here, before the lock or anything else is written.
  const sandbox = requireSandbox(opts, config);
  return holdRun(
    {
      lockPath: goalRunFiles(runDir(root, spec.name)).lock,
      runDir: runDir(root, spec.name),
      lock: {
        command: `ralph goal ${spec.name}`,
        ...(opts.force ? { force: true } : {}),
        ...(sandbox ? { sandbox: sandbox.kind } : {}),
      },
    },
    run,
    (controlled, lock) => goalLocked(root, config, spec, opts, controlled, lock),
  );
}

async function goalLocked(
  root: string,
  config: Config,
  spec: GoalSpec,
  opts: GoalOptions,
  run: GoalHandles,
  lock: LockHandle,
): Promise<number> {
  const dir = runDir(root, spec.name);
  const { agent, fallbackAgents, wrap } = await setUpRunAgents(config, opts, run, {
    wrapFor: (agents) => runSandbox(opts, config, { root, runDir: dir, agents }),
    cwd: root,
  });
  const place = await enterPlace({
    root,
    name: spec.name,
    prd: {},
    files: spec.goalFile !== undefined ? [spec.goalFile] : [],
    mainCopiesWin: true,
    ...(opts.branch ? { branch: opts.branch } : {}),
    mode: workspaceMode(opts, config.worktree.enabled),
    setup: config.worktree.setup,
    emit: run.emit,
  });
  const maxCost = maxCostUsd(config, opts);
  const outcome = await runGoalLoop({
    cwd: place.cwd,
    // The goal file the agent sees (and must not change) is the workspace's copy.
    spec: spec.goalFile !== undefined ? { ...spec, goalFile: place.live(spec.goalFile) } : spec,
    runDir: dir,
    config,
    agent,
    fallbackAgents,
    limits: {
      maxIterations: goalMaxIterations(opts, spec, config),
      ...agentTimeLimits(config, opts),
      maxConsecutiveFailures: opts.maxRetries ?? config.limits.maxRetries,
      ...(maxCost !== undefined ? { maxCostUsd: maxCost } : {}),
      rateLimitBackoffMs: rateLimitBackoffMs(),
      hookDrainMs: envMs('RALPH_HOOK_DRAIN_MS', HOOK_DRAIN_MS),
      outageWaitMs: outageWaitMs(config, opts),
      heartbeatMs: heartbeatMs(),
    },
    promptTemplate: run.promptTemplate,
    stopSignal: run.stop,
    killSignal: run.kill,
    emit: run.emit,
    lock,
    ...(opts.allowDirty ? { allowDirty: true } : {}),
    ...(opts.wait ? { waitForAnswers: true } : {}),
    ...(wrap ? { wrap } : {}),
  });
  const { push, createPR } = onCompleteWanted(opts, config);
  if (outcome.exitCode === ExitCode.Success && place.branch && (push || createPR)) {
    const progress = await readGoalProgress(goalRunFiles(dir).progress);
    await onComplete({
      cwd: place.cwd,
      branch: place.branch,
      base: place.base,
      name: spec.name,
      project: spec.goal.trim().split('\n')[0] ?? spec.name,
      stories: progress ? completedSteps(progress) : [],
      unit: 'step',
      push,
      createPR,
      emit: run.emit,
    });
  }
  return outcome.exitCode;
}

/** The steps the goal run completed, for the pull request: iterations that worked on each, and their spend. */
export function completedSteps(progress: GoalProgress): PullRequestStory[] {
  return progress.dynamicSteps
    .filter((s) => s.status === 'completed')
    .map((s) => {
      const worked = progress.iterations.filter((i) => i.stepId === s.id);
      return {
        id: s.id,
        title: s.prompt.trim().split('\n')[0] ?? s.id,
        attempts: worked.length,
        costUsd: worked.reduce((sum, i) => sum + (i.costUsd ?? 0), 0),
      };
    });
}
