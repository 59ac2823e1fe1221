import { rescueStamp, rollBackAttempt } from '../attempt/rollback.js';
import { isTemporaryFile } from '../core/temporary-files.js';
import { prepareCheckout, type StashedChanges } from '../run/tree-guard.js';
import type { GoalContext } from './goal-context.js';

type TreeContext = Pick<GoalContext, 'cwd' | 'goalFileInRepo'>;

/** The tracked paths the tool owns in goal mode: `.ralph/` and the goal file. */
export function goalToolPaths(ctx: TreeContext): string[] {
  return ['.ralph', ...(ctx.goalFileInRepo !== undefined ? [ctx.goalFileInRepo] : [])];
}

export function isToolPath(ctx: TreeContext, path: string): boolean {
  return path === '.ralph' || path.startsWith('.ralph/') || path === ctx.goalFileInRepo;
}

/**
 * Failed iterations are rolled back with `git reset --hard`, so a goal run
 * never starts over someone's uncommitted work: it is refused, or with
 * `allowDirty` stashed (see `checkStartable`). A new or edited goal file (and
 * ralph's own tracked files) are committed for the user instead.
 */
export function prepareGoalTree(
  ctx: TreeContext & { spec?: { name: string }; allowDirty?: boolean },
): Promise<StashedChanges | null> {
  return prepareCheckout(ctx.cwd, {
    isToolPath: (p) => isToolPath(ctx, p),
    // Never what a killed run left inside an atomic write.
    commits: (p) => !isTemporaryFile(p),
    commitAs: 'chore(ralph): track the goal files',
    ...(ctx.spec ? { name: `goal ${ctx.spec.name}` } : {}),
    ...(ctx.allowDirty ? { allowDirty: true } : {}),
  });
}

/**
 * Every iteration starts clean: a failed one's commits and edits are
 * removed, after being kept under a rescue ref when the config says
 * `onFailure: keep`. Returns the rescue ref, if one was made.
 */
export function rollBackIteration(
  ctx: Pick<GoalContext, 'cwd' | 'config' | 'now' | 'spec'>,
  iteration: number,
  headBefore: string,
): Promise<string | undefined> {
  return rollBackAttempt(
    ctx.cwd,
    headBefore,
    ctx.config.onFailure === 'keep'
      ? {
          name: `${ctx.spec.name}/iteration-${iteration}-${rescueStamp(ctx.now())}`,
          message: `ralph: failed goal iteration ${iteration}`,
        }
      : undefined,
  );
}
