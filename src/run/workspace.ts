import { existsSync } from 'node:fs';
import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, RalphError, UsageError } from '../core/errors.js';
import type { Prd } from '../core/types.js';
import type { RunEvent } from '../events/run-event.js';
import {
  branchExists,
  defaultBranch,
  ralphBranch,
  recordRalphBranch,
  startPointOf,
  switchBranch,
} from '../git/branches.js';
import { ignoreLocally } from '../git/exclude.js';
import { fileAtRevision } from '../git/file-at-revision.js';
import { commitPaths, currentBranch, headSha, statusPorcelain, validateBranchName } from '../git/index.js';
import { mainCopyIsNews } from '../git/known-version.js';
import { addWorktree, findWorktree, listWorktrees, pruneWorktrees } from '../git/worktree.js';
import { openTaskSource } from '../sources/load-task-source.js';
import { takeMainEdits } from '../sources/main-edits.js';
import type { TaskSource } from '../sources/task-source.js';
import { archiveIfBranchChanged } from '../state/archive.js';
import { configPath, ralphDir, runFiles, worktreeDir } from '../state/layout.js';
import { withPassesFromGit } from './git-truth-source.js';
import { type SetupEnvironment, setupOnce } from './worktree-setup.js';

export type WorkspaceMode = 'worktree' | 'branch' | 'in-place';

export interface PlaceOptions {
  /** The main checkout (project root). */
  root: string;
  name: string;
  prd: Pick<Prd, 'branchName'>;
  /**
   * The files of the main checkout the loop works on (task file or spec
   * directory, progress file, goal file), as resolved there: brought into
   * the worktree (see `prepareWorkspace`).
   */
  files: readonly string[];
  /** The task file among `files`: the main checkout's edits to it reach a run on an existing branch. */
  taskFile?: string;
  /**
   * The main checkout's copies always win, not only on a new branch: files the
   * tool never writes (a goal file), which the user edits there between runs.
   */
  mainCopiesWin?: boolean;
  /** `--branch`: wins over the PRD's `branchName` and the default `ralph/<name>`. */
  branch?: string;
  mode: WorkspaceMode;
  /** `worktree.setup` from the config: a shell command run once in a new worktree. */
  setup?: string | null;
  emit?: (event: RunEvent) => void;
}

export interface WorkspaceOptions extends Omit<PlaceOptions, 'files'> {
  /** The task file (or spec directory) and progress file as resolved in the main checkout. */
  taskPath: string;
  progressPath: string;
  /**
   * Tasks kept outside the checkout (GitHub issues), used as they are: only
   * the progress file is brought into the worktree. A file source is opened
   * at the live task path instead.
   */
  source?: TaskSource;
  /** The run's folder: its state tells a remote source which stories this run has worked on. */
  runDir?: string;
}

/** Where a loop runs: the main checkout, a branch checked out there, or the run's worktree. */
export interface Place {
  mode: WorkspaceMode;
  /** Where the loop runs. */
  cwd: string;
  /** The branch the loop commits to (null: in place on a detached HEAD). */
  branch: string | null;
  /** The branch it came from, which `ralph merge` merges back into. */
  base: string | null;
  /** A worktree or branch was made by this call. */
  created: boolean;
  setupOutput?: string;
  /** What the worktree's setup command made, kept out of git's view there. */
  environment?: SetupEnvironment;
  /** Where a file of the main checkout is in this place: inside the worktree when there is one. */
  live(file: string): string;
}

export interface Workspace extends Place {
  /** The live task file and progress file: inside the worktree when there is one. */
  taskPath: string;
  progressPath: string;
  /** The tasks as the loop reads and writes them here: the live task file, or the remote source. */
  source: TaskSource;
}

/** `--no-worktree` / `--worktree` win over the config's `worktree.enabled`; `--branch` in place means branch mode. */
export function workspaceMode(
  flags: { worktree?: boolean; branch?: string },
  worktreeEnabled: boolean,
): WorkspaceMode {
  if (flags.worktree ?? worktreeEnabled) return 'worktree';
  return flags.branch ? 'branch' : 'in-place';
}

/**
 * What `ralph run` does before the loop: archive the previous feature when
 * the branch changed (`archiveIfBranchChanged`; in place only a PRD
 * `branchName` counts, as in snarktank's ralph.sh), then `prepareWorkspace`.
 */
export async function startWorkspace(options: WorkspaceOptions & { runDir: string }): Promise<Workspace> {
  const { root } = options;
  const branch =
    options.mode === 'in-place' ? (options.prd.branchName ?? null) : await resolveWorkBranch(root, options);
  const archived = await archiveIfBranchChanged({
    root,
    name: options.name,
    branch,
    taskPath: options.source?.remote ? null : options.taskPath,
    progressPath: options.progressPath,
    runDir: options.runDir,
    readPrevious: (rev, file) => fileAtRevision(root, rev, file),
  });
  if (archived) options.emit?.({ type: 'archived', ...archived });
  return prepareWorkspace(options);
}

/** `--branch`, else the PRD's `branchName`, else `ralph/<name>`; refused unless git accepts it. */
export async function resolveWorkBranch(
  cwd: string,
  options: Pick<PlaceOptions, 'name' | 'prd' | 'branch'>,
): Promise<string> {
  const branch = options.branch ?? options.prd.branchName ?? `ralph/${options.name}`;
  const check = await validateBranchName(branch, cwd);
  if (!check.ok) throw new UsageError(`cannot work on branch ${JSON.stringify(branch)}: ${check.reason}`);
  return branch;
}

/**
 * Gets the place the loop runs ready. `worktree`: `.ralph/worktrees/<name>/`
 * on its branch, created from the default branch on first use, reused after.
 * `branch`: the branch checked out in place (created from HEAD). `in-place`:
 * nothing changes.
 *
 * The task file must be in the worktree. On a new branch the main checkout's
 * copy wins (it is what the user just wrote, committed on the base branch or
 * not): if the worktree's copy differs or is missing, the task file and
 * progress file are copied in and committed as `chore(ralph): add <name> task
 * file`. On a branch that already existed, the worktree's copy is the live
 * record and only a missing file is copied. A task file outside the project
 * is used where it is.
 */
export async function prepareWorkspace(options: WorkspaceOptions): Promise<Workspace> {
  const remote = options.source?.remote ? options.source : null;
  const place = await enterPlace({
    ...options,
    files: remote ? [options.progressPath] : [options.taskPath, options.progressPath],
    ...(remote ? {} : { taskFile: options.taskPath }),
  });
  const taskPath = remote ? options.taskPath : place.live(options.taskPath);
  return {
    ...place,
    taskPath,
    progressPath: place.live(options.progressPath),
    source: remote
      ? withPassesFromGit(remote, {
          cwd: place.cwd,
          name: options.name,
          stateFile: options.runDir ? runFiles(options.runDir).state : '',
        })
      : openTaskSource(taskPath),
  };
}

/** `prepareWorkspace` for any list of files: a goal run brings its goal file, or nothing. */
export async function enterPlace(options: PlaceOptions): Promise<Place> {
  const { root, mode } = options;
  if (mode === 'in-place') {
    return {
      live: liveIn(root, root),
      mode,
      cwd: root,
      branch: await currentBranch(root),
      base: null,
      created: false,
    };
  }
  if ((await headSha(root)) === null) {
    throw new RalphError(
      'the repository has no commits yet; make an initial commit first',
      'no-commits',
      ExitCode.Usage,
    );
  }
  const branch = await resolveWorkBranch(root, options);
  if (mode === 'branch') return inBranch(options, branch);
  return inWorktree(options, branch);
}

async function inBranch(options: PlaceOptions, branch: string): Promise<Place> {
  const { root } = options;
  const current = await currentBranch(root);
  const known = await ralphBranch(root, branch);
  const done = (created: boolean, base: string | null): Place => ({
    live: liveIn(root, root),
    mode: 'branch',
    cwd: root,
    branch,
    base,
    created,
  });
  if (current === branch) return done(false, known?.base ?? null);
  const exists = await branchExists(root, branch);
  // In place the new branch starts from what is checked out: that is what the user is looking at.
  const base = exists ? (known?.base ?? null) : (current ?? (await defaultBranch(root)));
  await switchBranch(root, branch, { create: !exists });
  if (!exists) await recordRalphBranch(root, branch, { name: options.name, base });
  options.emit?.({ type: 'branch-switched', branch, created: !exists, base });
  return done(!exists, base);
}

async function inWorktree(options: PlaceOptions, branch: string): Promise<Place> {
  const { root, name, emit } = options;
  const dir = worktreeDir(root, name);
  // Run state and worktrees ignored in the main checkout, which this mode never changes otherwise (no
  // new .ralph/.gitignore there); registrations whose folder was deleted forgotten.
  await ignoreLocally(root, ['.ralph/runs/', '.ralph/worktrees/']);
  await pruneWorktrees(root);
  const existing = await findWorktree(root, dir);
  let created = false;
  let newBranch = false;
  let base: string | null;
  if (existing) {
    if (existing.branch !== branch) {
      throw new UsageError(
        `the worktree ${dir} is on ${existing.branch ?? 'a detached HEAD'}, not ${branch}`,
        [`merge or remove it first: \`ralph merge ${name}\`, \`ralph clean ${name}\``],
      );
    }
    base = (await ralphBranch(root, branch))?.base ?? null;
    emit?.({ type: 'worktree-reused', path: dir, branch });
  } else {
    await refuseOccupied(root, dir, branch, name);
    const known = await ralphBranch(root, branch);
    newBranch = !(await branchExists(root, branch));
    base = newBranch ? await defaultBranch(root) : (known?.base ?? (await defaultBranch(root)));
    if (newBranch && base === null) {
      throw new RalphError(
        'cannot tell which branch to start from (detached HEAD, no main or master)',
        'no-base',
        ExitCode.Usage,
        ['check out a branch, or pass --no-worktree'],
      );
    }
    await addWorktree(root, {
      dir,
      branch,
      ...(newBranch && base ? { createFrom: await startPointOf(root, base) } : {}),
    });
    if (!known?.name) await recordRalphBranch(root, branch, { name, base });
    created = true;
    emit?.({ type: 'worktree-created', path: dir, branch, base, newBranch });
  }
  await tellUncommittedLeftOut(root, emit);
  const live = liveIn(root, dir);
  const overwrite = newBranch || options.mainCopiesWin === true;
  if (!overwrite) await bringMainEdits(options, live, branch);
  await bringTaskFiles({ ...options, files: [...options.files, ...scaffolding(root)] }, live, {
    overwrite,
    keep: scaffolding(root),
    emit,
  });
  const setup = await setupOnce(dir, options.setup ?? null, emit);
  return {
    live,
    mode: 'worktree',
    cwd: dir,
    branch,
    base,
    created,
    ...(setup.output === null ? {} : { setupOutput: setup.output }),
    ...(setup.environment === null ? {} : { environment: setup.environment }),
  };
}

async function refuseOccupied(root: string, dir: string, branch: string, name: string): Promise<void> {
  const elsewhere = (await listWorktrees(root)).find((w) => w.branch === branch);
  if (elsewhere) {
    throw new UsageError(
      `${branch} is checked out at ${elsewhere.path}; a branch can be in one worktree only`,
      ['switch that checkout to another branch, pass --branch <other>, or run there with --no-worktree'],
    );
  }
  if (existsSync(dir) && (await readdir(dir)).length > 0) {
    throw new UsageError(`${dir} exists but is not a git worktree`, [
      `move it away, or remove it with \`ralph clean ${name} --force\``,
    ]);
  }
}

/** A file of the main checkout as seen from `cwd` (the worktree): same place relative to the project root. */
function liveIn(root: string, cwd: string): (file: string) => string {
  return (file) => {
    const rel = path.relative(root, file);
    return rel.startsWith('..') || path.isAbsolute(rel) ? file : path.join(cwd, rel);
  };
}

/**
 * What `ralph init` wrote besides the PRD: committed on the run's branch with
 * the task file when the branch lacks them, so `ralph merge` brings them into
 * the main checkout as committed files (there they are untracked copies the
 * merge settles) instead of leaving them behind. Never overwritten.
 */
function scaffolding(root: string): string[] {
  return [configPath(root), path.join(ralphDir(root), '.gitignore')];
}

/**
 * The main checkout's edits to the task file since the branch took its copy
 * (a story added there after a run): brought into the live copy with the
 * run's statuses kept, and committed. A main copy the branch already had
 * (the one it took, or one merged back) is nothing new.
 */
async function bringMainEdits(options: PlaceOptions, live: (file: string) => string, branch: string) {
  const from = options.taskFile;
  if (from === undefined) return;
  const to = live(from);
  if (!(await mainCopyIsNews(options.root, `refs/heads/${branch}`, from, to))) return;
  const edits = await takeMainEdits(from, to);
  if (edits === null) return;
  const cwd = worktreeDir(options.root, options.name);
  const commit = await commitPaths(
    cwd,
    [path.relative(cwd, to)],
    `chore(ralph): take the main checkout's edits to the ${options.name} task file`,
  );
  if (commit !== null) options.emit?.({ type: 'task-file-updated', path: from, ...edits, commit });
}

/**
 * A worktree starts from the last commit: the main checkout's uncommitted
 * source changes are not in it, and the agent would not see them. Said at
 * start (`--no-worktree` refuses a dirty tree instead). ralph's own folder is
 * not counted: the task file and config are brought in by ralph itself.
 */
async function tellUncommittedLeftOut(root: string, emit: PlaceOptions['emit']): Promise<void> {
  if (emit === undefined) return;
  const files = (await statusPorcelain(root)).map((e) => e.path).filter((p) => !p.startsWith('.ralph/'));
  if (files.length > 0) emit({ type: 'uncommitted-left-out', files });
}

async function bringTaskFiles(
  options: PlaceOptions,
  live: (file: string) => string,
  how: { overwrite: boolean; keep: readonly string[]; emit: PlaceOptions['emit'] },
): Promise<void> {
  const copied: string[] = [];
  for (const from of options.files) {
    const to = live(from);
    const overwrite = how.overwrite && !how.keep.includes(from);
    if (from === to || !existsSync(from) || (existsSync(to) && !overwrite)) continue;
    await cp(from, to, { recursive: true, force: true });
    copied.push(to);
  }
  if (copied.length === 0) return;
  const cwd = worktreeDir(options.root, options.name);
  const commit = await commitPaths(
    cwd,
    copied.map((p) => path.relative(cwd, p)),
    `chore(ralph): add ${options.name} task file`,
  );
  // An identical copy (the file was committed on the base branch) changes nothing and is not news.
  if (commit !== null) how.emit?.({ type: 'task-file-copied', paths: copied, commit });
}
