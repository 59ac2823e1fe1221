import { UsageError } from '../core/errors.js';
import { isInStoryNamespace } from '../core/story-ref.js';
import type { Prd } from '../core/types.js';
import { beginLandingSession } from '../parallel/begin-session.js';
import { undoInterruptedLanding, type WaitingStory } from '../parallel/parallel-recovery.js';
import { createStateStore, type StateStore } from '../parallel/state-store.js';
import { lockTakeoverEvent } from '../run/lock-events.js';
import { readTaskFile } from '../run/read-task-file.js';
import { contextIn, type LoopOptions, type RunContext } from '../run/run-context.js';
import type { Workspace } from '../run/workspace.js';
import { runFiles } from '../state/layout.js';
import type { LockHandle } from '../state/lock.js';
import { readRunState } from '../state/run-state.js';
import { newRunState } from '../state/run-state-update.js';
import { fetchShared, syncPrdBranch } from './shared-remote.js';

export interface RoleOptions extends Omit<LoopOptions, 'cwd' | 'source' | 'progressPath' | 'lock'> {
  /** The clone's main checkout. */
  root: string;
  /** The PRD branch, as `ralph run` would resolve it. */
  prdBranch: string;
  /** Held by the caller for the whole role. */
  lock: LockHandle;
  /** Gets the PRD checkout ready once the PRD branch matches the remote. */
  openWorkspace(): Promise<Workspace>;
}

/** A role's run in one clone, ready to plan, work or integrate. */
export interface Role {
  ctx: RunContext;
  store: StateStore;
  root: string;
  prdBranch: string;
  workspace: Workspace;
  /** The task file on the PRD branch's tip (the remote's, just fetched). */
  prd: Prd;
  /** Verified story branches a killed job left in this clone, not pushed yet. */
  waiting: WaitingStory[];
}

/**
 * What every role does first, in a fresh clone or one a killed job left:
 * undo a landing in flight, fetch the PRD branch and the story branches
 * from the remote and bring the local PRD branch to the remote's tip, open
 * the PRD checkout, and recover the clone's own story attempts as a
 * parallel run would (agents stopped, unfinished attempts rolled back).
 */
export async function openRole(options: RoleOptions): Promise<Role> {
  const files = runFiles(options.runDir);
  const now = options.now ?? (() => new Date());
  const { emit } = options;
  const takeover = lockTakeoverEvent(options.lock);
  if (takeover) emit(takeover);
  const { prdBranch, root } = options;
  if (isInStoryNamespace(prdBranch)) {
    throw new UsageError(`cannot land stories on ${prdBranch}: story branches live under that name`);
  }
  let state =
    (await readRunState(files.state)) ??
    newRunState({ name: options.name, taskPath: options.runDir, now: now() });
  // Before the workspace and the sync: both want the PRD checkout back on its branch.
  state = await undoInterruptedLanding(state, emit);
  await fetchShared(root, prdBranch, options.name);
  await syncPrdBranch(root, prdBranch);
  const workspace = await options.openWorkspace();
  if (workspace.branch !== prdBranch) {
    throw new UsageError(`the PRD checkout is on ${workspace.branch ?? 'a detached HEAD'}, not ${prdBranch}`);
  }
  const ctx = contextIn(options, workspace, { files, now });
  const { source } = ctx;
  // Role jobs leave hooks' changes: a local commit would stop the checkout following origin.
  const begun = await beginLandingSession(ctx, root, { ...state, taskPath: source.path }, { hooks: false });
  return {
    ctx,
    store: createStateStore(files.state, begun.state),
    root,
    prdBranch,
    workspace,
    prd: await readTaskFile(ctx),
    waiting: begun.waiting,
  };
}
