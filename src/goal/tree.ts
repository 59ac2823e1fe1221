import { rescueStamp, rollBackAttempt } from '../attempt/rollback.js';
import { ExitCode, RalphError } from '../core/errors.js';
import { commitPaths, headSha, statusPorcelain } from '../git/index.js';
import type { GoalContext } from './context.js';

type TreeContext = Pick<GoalContext, 'cwd' | 'goalFileInRepo'>;

/** The tracked paths the tool owns in goal mode: `.ralph/` and the goal file. */
export function goalToolPaths(ctx: TreeContext): string[] {
  return ['.ralph', ...(ctx.goalFileInRepo !== undefined ? [ctx.goalFileInRepo] : [])];
}

export function isToolPath(ctx: TreeContext, path: string): boolean {
  return path === '.ralph' || path.startsWith('.ralph/') || path === ctx.goalFileInRepo;
}

/** The agent's uncommitted changes, the tool's own files aside. */
export async function dirtyPaths(ctx: TreeContext): Promise<string[]> {
  return (await statusPorcelain(ctx.cwd)).map((e) => e.path).filter((p) => !isToolPath(ctx, p));
}

/**
 * Failed iterations are rolled back with `git reset --hard`, so a goal run
 * never starts over someone's uncommitted work. A new or edited goal file
 * (and ralph's own tracked files) are committed for the user instead.
 */
export async function prepareGoalTree(ctx: TreeContext): Promise<void> {
  if ((await headSha(ctx.cwd)) === null) {
    throw new RalphError(
      'the repository has no commits yet; make an initial commit first',
      'no-commits',
      ExitCode.Usage,
    );
  }
  const dirty = await statusPorcelain(ctx.cwd);
  const foreign = dirty.filter((e) => !isToolPath(ctx, e.path));
  if (foreign.length > 0) {
    throw new RalphError(
      'the working tree has uncommitted changes; commit or stash them first (failed iterations are rolled back with git reset)',
      'dirty-tree',
      ExitCode.Usage,
      foreign.slice(0, 20).map((e) => `${e.code} ${e.path}`),
    );
  }
  if (dirty.length > 0) {
    await commitPaths(
      ctx.cwd,
      dirty.map((e) => e.path),
      'chore(ralph): track the goal files',
    );
  }
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
