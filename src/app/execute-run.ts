import { join } from 'node:path';
import { ExitCode } from '../core/errors.js';
import type { RunEvent } from '../events/run-event.js';
import { hasParallelLeftovers } from '../parallel/activity.js';
import { runParallel } from '../parallel/parallel-runner.js';
import { completedStories, onComplete } from '../run/on-complete.js';
import type { LoopSteering } from '../run/run-context.js';
import { loopLimits } from '../run/run-limits.js';
import { startWorkspace, type Workspace, workspaceMode } from '../run/workspace.js';
import { requireSandbox, runSandbox } from '../sandbox/run-sandbox.js';
import { type LoopOutcome, runLoop } from '../sequential/sequential-runner.js';
import type { Config } from '../state/config.js';
import { runFiles } from '../state/layout.js';
import type { LockHandle } from '../state/lock.js';
import { readRunState } from '../state/run-state.js';
import type { RunOptions } from './command-options.js';
import { holdRun } from './hold-run.js';
import { onCompleteWanted, setUpRunAgents } from './run-setup.js';
import { type TaskContext, workspaceTarget } from './task-context.js';

export interface RunHandles {
  promptTemplate: string;
  emit: (event: RunEvent) => void;
  /** Finish the iteration, then stop. */
  stop: AbortSignal;
  /** Kill the agent now. */
  kill: AbortSignal;
  steering?: LoopSteering;
}

/**
 * One `ralph run` of a PRD, whoever watches it: the run's lock first, then
 * agent set-up, workspace (worktree, branch or in place), the loop, then
 * push and pull request.
 */
export async function executeRun(
  ctx: TaskContext,
  config: Config,
  opts: RunOptions,
  run: RunHandles,
): Promise<number> {
  // A sandbox asked for and not to be had refuses here, before the lock or anything else is written.
  const sandbox = requireSandbox(opts, config);
  return holdRun(
    {
      lockPath: runFiles(ctx.target.runDir).lock,
      runDir: ctx.target.runDir,
      lock: {
        command: `ralph run ${ctx.target.name}`,
        ...(opts.force ? { force: true } : {}),
        ...(sandbox ? { sandbox: sandbox.kind } : {}),
      },
    },
    run,
    (controlled, lock) => runLocked(ctx, config, opts, controlled, lock),
  );
}

async function runLocked(
  ctx: TaskContext,
  config: Config,
  opts: RunOptions,
  run: RunHandles,
  lock: LockHandle,
): Promise<number> {
  const { agent, fallbackAgents, wrap } = await setUpRunAgents(config, opts, run, {
    wrapFor: (agents) => runSandbox(opts, config, { root: ctx.root, runDir: ctx.target.runDir, agents }),
    cwd: ctx.root,
  });
  const workspaceOptions = {
    ...workspaceTarget(ctx),
    ...(opts.branch ? { branch: opts.branch } : {}),
    mode: workspaceMode(opts, config.worktree.enabled),
    setup: config.worktree.setup,
    emit: run.emit,
  };
  const common = {
    name: ctx.target.name,
    runDir: ctx.target.runDir,
    config,
    agent,
    fallbackAgents,
    limits: loopLimits(config, opts),
    ...(opts.story ? { onlyStoryId: opts.story } : {}),
    ...(opts.resumeFrom ? { resumeFromId: opts.resumeFrom } : {}),
    promptTemplate: run.promptTemplate,
    stopSignal: run.stop,
    killSignal: run.kill,
    ...(run.steering ? { steering: run.steering } : {}),
    ...(opts.wait ? { waitForAnswers: true } : {}),
    emit: run.emit,
    lock,
    ...(opts.allowDirty ? { allowDirty: true } : {}),
    ...(wrap ? { wrap } : {}),
  };

  let workspace: Workspace;
  let outcome: LoopOutcome;
  const leftovers =
    (opts.parallel ?? 1) === 1 &&
    (await hasParallelLeftovers(
      ctx.root,
      ctx.target.name,
      await readRunState(join(ctx.target.runDir, 'state.json')),
    ));
  if ((opts.parallel ?? 1) > 1 || leftovers) {
    // The parallel runner opens the workspace itself, under its lock, after undoing a half-done landing.
    ({ workspace, ...outcome } = await runParallel({
      ...common,
      workers: opts.parallel ?? 1,
      root: ctx.root,
      openWorkspace: () => startWorkspace(workspaceOptions),
    }));
  } else {
    workspace = await startWorkspace(workspaceOptions);
    outcome = await runLoop({
      ...common,
      cwd: workspace.cwd,
      source: workspace.source,
      progressPath: workspace.progressPath,
      ...(workspace.environment ? { environment: workspace.environment } : {}),
    });
  }
  const { source } = workspace;
  const { push, createPR } = onCompleteWanted(opts, config);
  if (outcome.exitCode === ExitCode.Success && workspace.branch && (push || createPR)) {
    const read = await source.read();
    const state = await readRunState(join(ctx.target.runDir, 'state.json'));
    await onComplete({
      cwd: workspace.cwd,
      branch: workspace.branch,
      base: workspace.base,
      name: ctx.target.name,
      project: ctx.prd.project,
      stories: read.ok ? completedStories(read.prd, state) : [],
      push,
      createPR,
      emit: run.emit,
      ...(ctx.pullRequests ? { pullRequests: ctx.pullRequests } : {}),
    });
  }
  return outcome.exitCode;
}
