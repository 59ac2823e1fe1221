import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import type { TaskFormat } from '../core/types.js';
import { chiefFolderSource, chiefStatusFile } from './chief-folder-source.js';
import { fileTaskSource } from './file-task-source.js';
import { prdMdFormat } from './prd-md-format.js';
import type { ReadResult, TaskSource } from './task-source.js';

export interface DetectedSource {
  format: Exclude<TaskFormat, 'github'>;
  /** The task file or spec directory to read (a project dir resolves to its `specs/`). */
  path: string;
}

const isDir = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

function hasEpicDirs(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => /^epic-\d+$/.test(name) && isDir(join(dir, name)));
  } catch {
    return false;
  }
}

/**
 * Which task format a path holds: `*.json` is a prd.json, `*.md` a prd.md,
 * a directory a spec directory (either `specs/` itself or a project holding
 * one). A directory with no specs but a prd.md / prd.json (a PRD folder)
 * reads that file. Throws `UsageError` for anything else.
 */
export function detectFormat(path: string): DetectedSource {
  if (isDir(path)) {
    if (basename(path) !== 'specs' && !hasEpicDirs(path)) {
      if (isDir(join(path, 'specs'))) return { format: 'spec-dir', path: join(path, 'specs') };
      if (isFile(join(path, 'prd.md'))) return { format: 'prd-md', path: join(path, 'prd.md') };
      if (isFile(join(path, 'prd.json'))) return { format: 'prd-json', path: join(path, 'prd.json') };
    }
    return { format: 'spec-dir', path };
  }
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return { format: 'prd-json', path };
  if (ext === '.md' || ext === '.markdown') return { format: 'prd-md', path };
  if (ext === '' && !existsSync(path)) return { format: 'spec-dir', path };
  throw new UsageError(`cannot tell the task format of ${path}`, [
    'expected a prd.json, a prd.md, or a spec directory (specs/epic-N/story-N.M-slug.md)',
  ]);
}

export function openTaskSource(path: string): TaskSource {
  const detected = detectFormat(path);
  switch (detected.format) {
    case 'prd-json':
      return loadedOnUse('prd-json', detected.path, async () =>
        fileTaskSource((await import('./prd-json-format.js')).prdJsonFormat, detected.path),
      );
    case 'prd-md': {
      // An older Chief folder: prd.md with Chief's prd.json of statuses beside it.
      const chiefJson = chiefStatusFile(detected.path);
      if (chiefJson !== undefined) return chiefFolderSource(detected.path, chiefJson);
      return fileTaskSource(prdMdFormat, detected.path);
    }
    case 'spec-dir':
      return loadedOnUse('spec-dir', detected.path, async () =>
        (await import('./spec-dir-source.js')).specDirTaskSource(detected.path),
      );
  }
}

/**
 * A source whose reader is imported on first use: the JSON reader brings
 * zod and the spec reader YAML, which a command on a prd.md never needs
 * (the bundle puts them in chunks of their own, so a short command that
 * reads a prd.md loads neither).
 */
function loadedOnUse(
  format: Exclude<TaskFormat, 'github'>,
  path: string,
  load: () => Promise<TaskSource>,
): TaskSource {
  let loaded: Promise<TaskSource> | undefined;
  const source = () => {
    loaded ??= load();
    return loaded;
  };
  return {
    format,
    path,
    read: async () => (await source()).read(),
    setStatus: async (storyId, status) => (await source()).setStatus(storyId, status),
  };
}

/**
 * The same tasks as seen from another checkout of the run (a worktree): a
 * file source opened at its file's place there, a remote source as it is.
 */
export function sourceSeenFrom(source: TaskSource, live: (file: string) => string): TaskSource {
  return source.remote ? source : openTaskSource(live(source.path));
}

/** Reads and validates a task source (format checks plus the story graph); never throws for bad input. */
export async function readPrd(path: string): Promise<ReadResult> {
  let source: TaskSource;
  try {
    source = openTaskSource(path);
  } catch (error) {
    if (error instanceof UsageError)
      return { ok: false, issues: [{ file: path, message: error.message, severity: 'error' }] };
    throw error;
  }
  return source.read();
}
