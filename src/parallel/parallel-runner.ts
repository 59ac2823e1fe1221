import { UsageError } from '../core/errors.js';
import { isInStoryNamespace } from '../core/story-ref.js';
import { holdOwnRef } from '../git/refs-guard.js';
import { openAnswerDesk } from '../run/answer-desk.js';
import { lockTakeoverEvent } from '../run/lock-events.js';
import { contextIn, type LoopOptions, type LoopOutcome } from '../run/run-context.js';
import type { Workspace } from '../run/workspace.js';
import { runFiles } from '../state/layout.js';
import { acquireLock } from '../state/lock.js';
import { readRunState } from '../state/run-state.js';
import { newRunState } from '../state/run-state-update.js';
import { beginLandingSession } from './begin-session.js';
import { undoInterruptedLanding } from './parallel-recovery.js';
import { schedule } from './scheduler.js';
import { createStateStore } from './state-store.js';

export interface ParallelOptions extends Omit<LoopOptions, 'cwd' | 'source' | 'progressPath'> {
  /** Stories run at once (`--parallel N`, N ≥ 2). */
  workers: number;
  /** The repository's main checkout. */
  root: string;
  /** Gets the PRD checkout ready (worktree, branch or in place): called once the lock is held. */
  openWorkspace(): Promise<Workspace>;
}

export interface ParallelOutcome extends LoopOutcome {
  workspace: Workspace;
}

/**
 * `ralph run --parallel N`: under the run's lock, undo what a killed run
 * left half done, open the PRD checkout, then schedule (see `schedule`).
 */
export async function runParallel(options: ParallelOptions): Promise<ParallelOutcome> {
  const files = runFiles(options.runDir);
  const now = options.now ?? (() => new Date());
  const { emit } = options;
  const lock =
    options.lock ??
    (await acquireLock(files.lock, { command: `ralph run ${options.name} --parallel ${options.workers}` }));
  try {
    const takeover = lockTakeoverEvent(lock);
    if (takeover) emit(takeover);
    const saved = await readRunState(files.state);
    let state = saved ?? newRunState({ name: options.name, taskPath: options.runDir, now: now() });
    const resumed =
      saved !== null &&
      (saved.current !== null || (saved.running ?? []).length > 0 || saved.stop === undefined);
    // Before the workspace: it wants the PRD checkout back on its branch.
    state = await undoInterruptedLanding(state, emit);
    const workspace = await options.openWorkspace();
    const branch = workspace.branch;
    if (branch === null) {
      throw new UsageError('--parallel needs a branch to land stories on, and HEAD is detached', [
        'check out a branch, or pass --branch <name>',
      ]);
    }
    if (isInStoryNamespace(branch)) {
      throw new UsageError(
        `--parallel cannot land stories on ${branch}: story branches live under that name`,
      );
    }
    // Stops every agent and gate when a worker fails with an error; Ctrl-C twice does the same.
    const abort = new AbortController();
    const ctx = contextIn(
      { ...options, killSignal: AbortSignal.any([options.killSignal, abort.signal]) },
      workspace,
      { files, now },
    );
    const { source } = ctx;
    // A sequential run killed mid-attempt is recovered as it would be by itself, and a sequential
    // hook cut short in the PRD checkout has its changes committed, before anything lands there.
    const begun = await beginLandingSession(
      ctx,
      options.root,
      { ...state, taskPath: source.path },
      { hooks: true },
    );
    state = begun.state;
    // From here on only the merge queue moves the PRD branch: where it is now is where it belongs.
    await holdOwnRef(ctx.cwd, `refs/heads/${branch}`);
    const desk = await openAnswerDesk({ runDir: files.dir, emit, now });
    try {
      const outcome = await schedule({
        ctx,
        store: createStateStore(files.state, state),
        root: options.root,
        prdBranch: branch,
        workers: options.workers,
        waiting: begun.waiting,
        resumed,
        desk,
        abortAll: () => abort.abort(),
      });
      return { ...outcome, workspace };
    } finally {
      desk.close();
    }
  } finally {
    if (options.lock === undefined) await lock.release();
  }
}
