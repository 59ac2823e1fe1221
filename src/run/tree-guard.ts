import { ExitCode, RalphError } from '../core/errors.js';
import { commitPaths, git, headSha, type StatusEntry, statusPorcelain } from '../git/index.js';
import type { RunContext } from './run-context.js';
import { isCommittedToolFile, isToolFile } from './tool-files.js';

export interface StartableOptions {
  /** Move the user's uncommitted changes into a stash instead of refusing to start. */
  allowDirty?: boolean;
  /** Paths the tool owns (task file, progress file, `.ralph/`): never counted as the user's changes. */
  isToolPath?: (path: string) => boolean;
  /** Names the stash entry. */
  name?: string;
}

export interface StashedChanges {
  /** The stash commit; `git stash apply <sha>` brings the changes back even if the stash list moved on. */
  sha: string;
  message: string;
  files: string[];
}

export interface Startable {
  /** The tool's own uncommitted files, left for the caller to commit. */
  toolFiles: StatusEntry[];
  /** Set when `allowDirty` moved the user's changes away. */
  stashed: StashedChanges | null;
}

/**
 * Failed attempts are rolled back with `git reset --hard` and `git clean`, so
 * the loop must never start on top of someone's uncommitted work. Without
 * `allowDirty` a dirty tree is refused (exit 2, files listed). With it the
 * changes are stashed (`git stash push --include-untracked`, only those
 * paths): out of the rollback's reach, listed by `git stash list`, and back
 * with `git stash pop`. Running on top of them was rejected as an option:
 * the agent's `git add -A` would commit them into its story, and a rollback
 * would then delete them.
 */
export async function checkStartable(cwd: string, options: StartableOptions = {}): Promise<Startable> {
  const isTool = options.isToolPath ?? ((p: string) => p.startsWith('.ralph/'));
  const dirty = await statusPorcelain(cwd);
  const toolFiles = dirty.filter((e) => isTool(e.path));
  const foreign = dirty.filter((e) => !isTool(e.path));
  if (foreign.length === 0) return { toolFiles, stashed: null };
  if (!options.allowDirty) {
    throw new RalphError(
      'the working tree has uncommitted changes; commit or stash them first (failed attempts are rolled back with git reset), or pass --allow-dirty to have ralph stash them',
      'dirty-tree',
      ExitCode.Usage,
      foreign.slice(0, 20).map((e) => `${e.code} ${e.path}`),
    );
  }
  const files = [...new Set(foreign.flatMap((e) => (e.from ? [e.path, e.from] : [e.path])))];
  const message = `ralph: uncommitted changes set aside before running ${options.name ?? 'the loop'}`;
  await git(
    [
      'stash',
      'push',
      '--quiet',
      '--include-untracked',
      '-m',
      message,
      '--',
      ...files.map((f) => `:(top,literal)${f}`),
    ],
    { cwd },
  );
  const sha = await git(['rev-parse', '--verify', 'refs/stash'], { cwd });
  return { toolFiles, stashed: { sha, message, files } };
}

/**
 * Before the first iteration: the repository needs a commit, the user's
 * changes must be out of the way (see `checkStartable`), and the tool's own
 * files (task file, progress file, `.ralph/` config) are committed for the
 * user (see `isCommittedToolFile`).
 * Returns what was stashed, for the caller to tell the user.
 */
export function prepareTree(
  ctx: RunContext,
  options: { allowDirty?: boolean } = {},
): Promise<StashedChanges | null> {
  return prepareCheckout(ctx.cwd, {
    isToolPath: (p) => isToolFile(ctx, p),
    name: ctx.name,
    commits: (p) => isCommittedToolFile(ctx, p),
    commitAs: `chore(ralph): track ${ctx.name} task files`,
    ...(options.allowDirty ? { allowDirty: true } : {}),
  });
}

/**
 * `prepareTree` for any loop: its own tool paths, which of the tool's
 * uncommitted files it commits for the user, and with what message.
 */
export async function prepareCheckout(
  cwd: string,
  options: StartableOptions & { commits: (path: string) => boolean; commitAs: string },
): Promise<StashedChanges | null> {
  if ((await headSha(cwd)) === null) {
    throw new RalphError(
      'the repository has no commits yet; make an initial commit first',
      'no-commits',
      ExitCode.Usage,
    );
  }
  const { toolFiles, stashed } = await checkStartable(cwd, options);
  const committed = toolFiles.map((e) => e.path).filter(options.commits);
  if (committed.length > 0) await commitPaths(cwd, committed, options.commitAs);
  return stashed;
}
