/** What every run does in its checkout before its first attempt, whichever runner it is. */
import { ensureRalphGitignore } from '../state/gitignore.js';
import type { RunState } from '../state/run-state.js';
import { recoverInterruptedAttempt, startSession } from './attempt-recovery.js';
import { recoverHooks } from './hook-recovery.js';
import type { RunContext } from './run-context.js';
import { saveState } from './state-io.js';
import { removeToolTemporaries } from './tool-files.js';
import { prepareTree } from './tree-guard.js';

export interface SessionRecovery {
  /**
   * Commit what a sequential hook cut short left in the checkout. Role jobs leave it: a local
   * commit would stop the checkout from following the shared remote.
   */
  hooks: boolean;
  /** The runner's own recovery, after the interrupted attempt's and the hooks'. */
  more?: (state: RunState) => Promise<RunState>;
}

/**
 * Settles what a killed run left (temporaries, an attempt in flight, hooks, the runner's own
 * work), starts a session, stashes or refuses a dirty tree, and saves the state.
 */
export async function beginSession(
  ctx: RunContext,
  saved: RunState,
  recovery: SessionRecovery,
): Promise<RunState> {
  await ensureRalphGitignore(ctx.cwd);
  await removeToolTemporaries(ctx);
  let state = await recoverInterruptedAttempt(ctx, saved);
  if (recovery.hooks) await recoverHooks(ctx.cwd, ctx.files.dir, ctx.name, ctx.emit);
  if (recovery.more) state = await recovery.more(state);
  state = startSession(state, ctx.now());
  const stashed = await prepareTree(ctx, { allowDirty: ctx.allowDirty ?? false });
  if (stashed) ctx.emit({ type: 'changes-stashed', ...stashed });
  await saveState(ctx, state);
  return state;
}
