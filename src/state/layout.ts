import path from 'node:path';
import { UsageError } from '../core/errors.js';

/** The folder ralph keeps everything in, relative to the project root. */
export const RALPH_DIR = '.ralph';

export const MAX_NAME_LENGTH = 100;
const NAME_PATTERN = /^[A-Za-z0-9._-]+$/;

export function isValidPrdName(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && NAME_PATTERN.test(name) && name !== '.' && name !== '..';
}

/**
 * Every name that becomes a path segment goes through here first, so a name
 * can never climb out of its folder.
 */
export function validatePrdName(name: string): string {
  if (isValidPrdName(name)) return name;
  throw new UsageError(`Invalid PRD name ${JSON.stringify(name)}.`, [
    `A PRD name uses only letters, digits, '.', '_' and '-', is at most ${MAX_NAME_LENGTH} characters, and is not '.' or '..'.`,
  ]);
}

/** Turns arbitrary text (a folder or file name) into a valid PRD/run name. */
export function sanitizeName(raw: string): string {
  const cleaned = raw
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+/, '')
    .replace(/-+$/, '')
    .slice(0, MAX_NAME_LENGTH)
    .replace(/-+$/, '');
  return isValidPrdName(cleaned) ? cleaned : 'prd';
}

export const ralphDir = (root: string): string => path.join(root, RALPH_DIR);
export const configPath = (root: string): string => path.join(ralphDir(root), 'config.yaml');
export const prdsDir = (root: string): string => path.join(ralphDir(root), 'prds');
export const runsDir = (root: string): string => path.join(ralphDir(root), 'runs');
export const worktreesDir = (root: string): string => path.join(ralphDir(root), 'worktrees');
export const archiveDir = (root: string): string => path.join(ralphDir(root), 'archive');
export const workflowsDir = (root: string): string => path.join(ralphDir(root), 'workflows');

/**
 * `.ralph/github/<label>/progress.md`: the progress file of a run over a
 * label's GitHub issues, committed on the run's branch as a PRD's is (not
 * under `prds/`, where a folder is a PRD).
 */
export const githubProgressPath = (root: string, label: string): string =>
  path.join(ralphDir(root), 'github', sanitizeName(label), 'progress.md');

/** A `workflow:` name of a hook: a file name in `.ralph/workflows/`, never a path. */
export const WORKFLOW_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `.ralph/workflows/<name>.md` for `workflow: <name>`, given the workflows folder. */
export const workflowFile = (dir: string, name: string): string => path.join(dir, `${name}.md`);

export interface PrdPaths {
  dir: string;
  md: string;
  json: string;
  progress: string;
}

/**
 * Chief's layout for the same thing: `.chief/prds/<name>/prd.md` (an older
 * Chief's prd.json beside it), its progress.md in the same folder.
 */
export const chiefPrdsDir = (root: string): string => path.join(root, '.chief', 'prds');

export const chiefPrdPaths = (root: string, name: string): PrdPaths =>
  prdFolderPaths(path.join(chiefPrdsDir(root), validatePrdName(name)));

export const prdPaths = (root: string, name: string): PrdPaths =>
  prdFolderPaths(path.join(prdsDir(root), validatePrdName(name)));

/** The files of a PRD folder: its prd.md or prd.json, and the progress file beside them. */
function prdFolderPaths(dir: string): PrdPaths {
  return {
    dir,
    md: path.join(dir, 'prd.md'),
    json: path.join(dir, 'prd.json'),
    progress: path.join(dir, 'progress.md'),
  };
}

export interface RunPaths {
  dir: string;
  state: string;
  events: string;
  iterationsDir: string;
  lock: string;
  log: string;
  /** The effects outside the repository the run still owes (src/state/outbox.ts). */
  outbox: string;
}

export const runDir = (root: string, name: string): string => path.join(runsDir(root), validatePrdName(name));

/** The files of one run, given its run folder (as returned by `resolveTarget`). */
export function runFiles(dir: string): RunPaths {
  return {
    dir,
    state: path.join(dir, 'state.json'),
    events: path.join(dir, 'events.jsonl'),
    iterationsDir: path.join(dir, 'iterations'),
    lock: path.join(dir, 'lock'),
    log: path.join(dir, 'ralph.log'),
    outbox: path.join(dir, 'outbox.json'),
  };
}

export const runPaths = (root: string, name: string): RunPaths => runFiles(runDir(root, name));

/** `iterations/<n>.jsonl`: the agent's raw stream for iteration n (1-based). */
export function iterationLogPath(dir: string, iteration: number): string {
  if (!Number.isSafeInteger(iteration) || iteration < 1) {
    throw new UsageError(`Invalid iteration number ${iteration}; iterations count from 1.`);
  }
  return path.join(runFiles(dir).iterationsDir, `${iteration}.jsonl`);
}

/** The agent's raw stream of the resolution run that brought iteration `iteration`'s work onto a new tip. */
export function resolutionLogPath(dir: string, iteration: number): string {
  return iterationLogPath(dir, iteration).replace(/\.jsonl$/, '-resolution.jsonl');
}

export const worktreeDir = (root: string, name: string): string =>
  path.join(worktreesDir(root), validatePrdName(name));

/** `archive/YYYY-MM-DD-<name>/`, where a finished PRD and its progress are moved. */
export function archiveEntryDir(root: string, date: Date, name: string): string {
  const day = date.toISOString().slice(0, 10);
  return path.join(archiveDir(root), `${day}-${validatePrdName(name)}`);
}

/** The project root when `dir` is one of ralph's worktrees (`<root>/.ralph/worktrees/<name>`), else null. */
export function rootOfRalphWorktree(dir: string): string | null {
  const resolved = path.resolve(dir);
  const worktrees = path.dirname(resolved);
  const ralph = path.dirname(worktrees);
  const isWorktree =
    path.basename(resolved) !== '' &&
    path.basename(worktrees) === 'worktrees' &&
    path.basename(ralph) === RALPH_DIR;
  return isWorktree ? path.dirname(ralph) : null;
}
