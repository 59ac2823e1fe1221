import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { protectionRemoved } from '../core/protections.js';
import { temporaryName, temporaryWriter } from '../core/temporary-files.js';
import { faultPoint } from './fault-point.js';
import { errorCode } from './fs-util.js';
import { isProcessAlive } from './process-identity.js';

/** Temporary files written by this process so far: part of each one's unique name. */
let written = 0;

/**
 * Writes through a temp file (see src/core/temporary-files.ts), fsync and
 * rename, so readers see either the old or the new content and a crash never
 * leaves a half-written file. An existing file keeps its mode. A link at
 * `file` is replaced, never followed: these are ralph's files in a checkout
 * the agent could write, and a link there (to `~/.bashrc`, say) must not
 * carry ralph's write out of it.
 */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const noFollow = !protectionRemoved('no-follow');
  const target = noFollow ? file : await fs.realpath(file).catch(() => file);
  const dir = path.dirname(target);
  const temp = path.join(dir, temporaryName(path.basename(target), process.pid, ++written));
  const existing = await fs.lstat(target).catch(() => null);
  const mode = existing?.isFile() ? existing.mode : undefined;
  try {
    const handle = await fs.open(temp, 'wx');
    try {
      await handle.writeFile(data);
      if (mode !== undefined) await handle.chmod(mode & 0o7777);
      await handle.sync();
    } finally {
      await handle.close();
    }
    faultPoint(`atomic-write:${path.basename(target)}`);
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/**
 * Removes the temporary files that killed runs left in `dir` (and below it
 * with `recursive`). A temporary whose writer is still running is its, and stays.
 */
export async function removeStaleTemporaries(
  dir: string,
  options: { recursive?: boolean } = {},
): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (['ENOENT', 'ENOTDIR'].includes(errorCode(error) ?? '')) return [];
    throw error;
  }
  const removed: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (options.recursive && entry.name !== '.git')
        removed.push(...(await removeStaleTemporaries(full, options)));
      continue;
    }
    const writer = temporaryWriter(entry.name);
    if (writer === undefined || isProcessAlive(writer)) continue;
    await fs.rm(full, { force: true });
    removed.push(full);
  }
  return removed;
}
