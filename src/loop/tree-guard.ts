import { ExitCode, RalphError } from '../core/errors.js';
import { commitPaths, headSha, statusPorcelain } from '../git/index.js';
import type { RunContext } from './context.js';
import { isToolFile } from './tool-files.js';

/**
 * Failed attempts are rolled back with `git reset --hard`, so the loop must
 * never start over someone's uncommitted work. The tool's own files (task
 * file, progress file, `.ralph/`) are committed for the user instead.
 */
export async function prepareTree(ctx: RunContext): Promise<void> {
  if ((await headSha(ctx.cwd)) === null) {
    throw new RalphError(
      'the repository has no commits yet; make an initial commit first',
      'no-commits',
      ExitCode.Usage,
    );
  }
  const dirty = await statusPorcelain(ctx.cwd);
  const foreign = dirty.filter((e) => !isToolFile(ctx, e.path));
  if (foreign.length > 0) {
    throw new RalphError(
      'the working tree has uncommitted changes; commit or stash them first (failed attempts are rolled back with git reset)',
      'dirty-tree',
      ExitCode.Usage,
      foreign.slice(0, 20).map((e) => `${e.code} ${e.path}`),
    );
  }
  if (dirty.length > 0) {
    await commitPaths(
      ctx.cwd,
      dirty.map((e) => e.path),
      `chore(ralph): track ${ctx.name} task files`,
    );
  }
}
