import fs from 'node:fs/promises';
import path from 'node:path';
import { closestKey } from '../core/closest-name.js';
import { UsageError } from '../core/errors.js';
import type { TaskFormat } from '../core/types.js';
import { isMissing, statOrNull } from './fs-util.js';
import {
  chiefPrdPaths,
  chiefPrdsDir,
  isValidPrdName,
  MAX_NAME_LENGTH,
  type PrdPaths,
  prdPaths,
  prdsDir,
  RALPH_DIR,
  runDir,
  sanitizeName,
} from './layout.js';
import { locateProject } from './project-root.js';

export interface ResolvedTarget {
  /** The PRD name, or a name derived from the file; names the run folder. */
  name: string;
  format: TaskFormat;
  /** The prd.md / prd.json file, or the spec directory. */
  taskPath: string;
  progressPath: string;
  /** `.ralph/runs/<name>/` */
  runDir: string;
}

export interface ResolveOptions {
  /** Relative target paths are taken from here; defaults to `process.cwd()`. */
  cwd?: string;
}

const DEFAULT_PRD = 'main';

/**
 * Turns the `[target]` argument into the task file, progress file and run
 * folder: a PRD name, a prd.json/prd.md path, or a spec directory. With no
 * target: the only PRD under `.ralph/prds/` (or Chief's `.chief/prds/`),
 * else the one named `main`. A name is looked up in ralph's folder first,
 * then in Chief's.
 */
export async function resolveTarget(
  root: string,
  target?: string,
  options: ResolveOptions = {},
): Promise<ResolvedTarget> {
  if (target === undefined || target === '') return resolveDefault(root);
  refuseUnusablePath(target);
  if (isValidPrdName(target)) {
    const named = await resolveNamed(root, target);
    if (named) return named;
  }
  const full = path.resolve(options.cwd ?? process.cwd(), target);
  const stats = await statOrNull(full);
  if (stats?.isFile()) return resolveFile(root, full);
  if (stats?.isDirectory()) return resolveDirectory(root, full);
  const lookedFor = [`${full} (a prd.json, a prd.md or a spec directory)`];
  if (isValidPrdName(target)) {
    const p = prdPaths(root, target);
    const chief = chiefPrdPaths(root, target);
    lookedFor.unshift(p.md, p.json, chief.md, chief.json);
  }
  const names = await listPrdNames(root);
  const guess = closestKey(target, names);
  throw new UsageError(`No PRD found for ${JSON.stringify(target)}.`, [
    ...(guess !== undefined ? [`Did you mean ${JSON.stringify(guess)}?`] : []),
    `Looked for: ${lookedFor.join(', ')}.`,
    ...availableHint(names),
  ]);
}

/** Longest file name (one path part) the common file systems take, in bytes. */
const MAX_NAME_BYTES = 255;
const MAX_PATH_BYTES = 4096;

/** A target no file system can hold is a usage error, not an ENAMETOOLONG from deep inside. */
function refuseUnusablePath(target: string): void {
  const shown =
    target.length > 60
      ? `${JSON.stringify(target.slice(0, 40))}… (${target.length} characters)`
      : JSON.stringify(target);
  const longPart = target.split(/[/\\]/).find((part) => Buffer.byteLength(part) > MAX_NAME_BYTES);
  if (longPart !== undefined || Buffer.byteLength(target) > MAX_PATH_BYTES) {
    throw new UsageError(`The target ${shown} is too long to be a PRD name or a path.`, [
      `A file name is at most ${MAX_NAME_BYTES} bytes and a path at most ${MAX_PATH_BYTES}; a PRD name at most ${MAX_NAME_LENGTH} characters.`,
    ]);
  }
  if (target.includes('\0')) throw new UsageError(`The target ${shown} contains a NUL character.`);
}

/** The folders in `dir` named as a PRD can be, sorted; none when `dir` is missing. */
async function prdFolders(dir: string): Promise<string[]> {
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory() && isValidPrdName(e.name))
      .map((e) => e.name)
      .sort();
  } catch (error) {
    if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw error;
  }
}

/**
 * The PRD folders under `.ralph/prds/` and Chief's `.chief/prds/`, sorted
 * (a name in both is ralph's); with `withTaskFile`, only those holding a
 * prd.md or prd.json.
 */
export async function listPrdFolders(root: string, withTaskFile: boolean): Promise<string[]> {
  const names = [
    ...new Set([...(await prdFolders(prdsDir(root))), ...(await prdFolders(chiefPrdsDir(root)))]),
  ];
  const kept: string[] = [];
  for (const name of names.sort()) {
    if (!withTaskFile || (await findTaskFile(root, name))) kept.push(name);
  }
  return kept;
}

/** Names of the PRD folders (`.ralph/prds/<name>/`, or Chief's `.chief/prds/<name>/`) that hold a prd.md or prd.json, sorted. */
export const listPrdNames = (root: string): Promise<string[]> => listPrdFolders(root, true);

async function resolveDefault(root: string): Promise<ResolvedTarget> {
  const names = await listPrdNames(root);
  const only = names.length === 1 ? names[0] : undefined;
  const chosen = only ?? (names.includes(DEFAULT_PRD) ? DEFAULT_PRD : undefined);
  if (chosen !== undefined) {
    const named = await resolveNamed(root, chosen);
    if (named) return named;
  }
  if (names.length === 0) {
    const p = prdPaths(root, DEFAULT_PRD);
    throw new UsageError('No PRD found.', [
      `Looked in ${prdsDir(root)} and ${chiefPrdsDir(root)} for a folder with a prd.md or prd.json (none there, and no ${p.md} or ${p.json}).`,
      (await locateProject(root)).inGit
        ? 'Create one with `ralph init` or `ralph new`, or pass a path to a prd.json, prd.md or spec directory.'
        : `${root} is not inside a git repository, which ralph needs (each story's work is a commit): \`git init\` and make a first commit, then \`ralph init\`.`,
    ]);
  }
  throw new UsageError(`Several PRDs and none named ${DEFAULT_PRD}; say which one to use.`, [
    `PRDs: ${names.join(', ')}.`,
  ]);
}

async function taskFileIn(
  p: PrdPaths,
): Promise<{ file: string; format: TaskFormat; progress: string } | null> {
  if ((await statOrNull(p.md))?.isFile()) return { file: p.md, format: 'prd-md', progress: p.progress };
  if ((await statOrNull(p.json))?.isFile()) return { file: p.json, format: 'prd-json', progress: p.progress };
  return null;
}

/** A PRD name's task file: ralph's `.ralph/prds/<name>/` first, then Chief's `.chief/prds/<name>/`. */
async function findTaskFile(
  root: string,
  name: string,
): Promise<{ file: string; format: TaskFormat; progress: string } | null> {
  return (await taskFileIn(prdPaths(root, name))) ?? (await taskFileIn(chiefPrdPaths(root, name)));
}

async function resolveNamed(root: string, name: string): Promise<ResolvedTarget | null> {
  const found = await findTaskFile(root, name);
  if (!found) return null;
  return {
    name,
    format: found.format,
    taskPath: found.file,
    progressPath: found.progress,
    runDir: runDir(root, name),
  };
}

async function resolveFile(root: string, file: string): Promise<ResolvedTarget> {
  const ext = path.extname(file).toLowerCase();
  const format: TaskFormat | null = ext === '.json' ? 'prd-json' : ext === '.md' ? 'prd-md' : null;
  if (format === null) {
    throw new UsageError(`${file} is not a task file.`, [
      'A target file is a prd.json (JSON) or a prd.md (Markdown); anything else needs converting first.',
    ]);
  }
  const insidePrds = prdNameOf(root, file);
  if (insidePrds !== null) {
    return {
      name: insidePrds,
      format,
      taskPath: file,
      progressPath: prdPaths(root, insidePrds).progress,
      runDir: runDir(root, insidePrds),
    };
  }
  // A Chief folder's file is the PRD of that name, as `ralph run <name>` finds it, unless ralph has its own.
  const insideChief = nameInFolder(chiefPrdsDir(root), file);
  if (insideChief !== null && !(await taskFileIn(prdPaths(root, insideChief)))) {
    return {
      name: insideChief,
      format,
      taskPath: file,
      progressPath: await progressBeside(path.dirname(file)),
      runDir: runDir(root, insideChief),
    };
  }
  const dir = path.dirname(file);
  const stem = path.basename(file, path.extname(file));
  const name = sanitizeName(`${path.basename(dir)}-${stem}`);
  return {
    name,
    format,
    taskPath: file,
    progressPath: await progressBeside(dir),
    runDir: runDir(root, name),
  };
}

async function resolveDirectory(root: string, dir: string): Promise<ResolvedTarget> {
  for (const file of ['prd.md', 'prd.json']) {
    const candidate = path.join(dir, file);
    if ((await statOrNull(candidate))?.isFile()) return resolveFile(root, candidate);
  }
  const nested = path.join(dir, 'specs');
  if ((await statOrNull(nested))?.isDirectory()) return specDir(root, nested);
  if (path.basename(dir) === 'specs' || (await hasEpicFolders(dir))) return specDir(root, dir);
  throw new UsageError(`${dir} holds no task file.`, [
    `Looked for ${path.join(dir, 'prd.md')}, ${path.join(dir, 'prd.json')}, ${nested}/, and epic-N/ folders of a spec directory.`,
  ]);
}

async function specDir(root: string, specs: string): Promise<ResolvedTarget> {
  const parent = path.dirname(specs);
  const name = sanitizeName(`${path.basename(parent)}-${path.basename(specs)}`);
  return {
    name,
    format: 'spec-dir',
    taskPath: specs,
    progressPath: await progressBeside(parent),
    runDir: runDir(root, name),
  };
}

/** The PRD name when `file` sits directly in `.ralph/prds/<name>/`, else null. */
const prdNameOf = (root: string, file: string): string | null =>
  nameInFolder(path.join(path.resolve(root), RALPH_DIR, 'prds'), file);

/** `<name>` when `file` sits directly in `<prds>/<name>/`, else null. */
function nameInFolder(prds: string, file: string): string | null {
  const rel = path.relative(path.resolve(prds), file);
  const parts = rel.split(path.sep);
  const name = parts[0];
  return parts.length === 2 && name !== undefined && isValidPrdName(name) ? name : null;
}

async function progressBeside(dir: string): Promise<string> {
  const txt = path.join(dir, 'progress.txt');
  return (await statOrNull(txt))?.isFile() ? txt : path.join(dir, 'progress.md');
}

async function hasEpicFolders(dir: string): Promise<boolean> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  return entries.some((e) => e.isDirectory() && /^epic-\d+/.test(e.name));
}

function availableHint(names: readonly string[]): string[] {
  return names.length > 0 ? [`PRDs: ${names.join(', ')}.`] : [];
}
