/**
 * The checkout's `.ralph/` folder across an attempt. Its config, prompts and
 * task files are ralph's configuration, read outside the sandbox: the agent
 * edits none of them. Whatever the attempt did there (an edited or new
 * `config.yaml`, a prompt, a link in place of a file, another PRD's files)
 * is put back as it was when the attempt started, its commits undone by a
 * commit of ralph's, and each path named. ralph's own run records
 * (`runs/`, `worktrees/`) are not the checkout's and are left out.
 */
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { protectionRemoved } from '../core/protections.js';
import { commitPaths, git } from '../git/index.js';

const OWN_RECORDS = new Set(['runs', 'worktrees']);

/** relative path (from the checkout) → the file's bytes, or the link's target. */
export type FolderSnapshot = Map<string, { file: Buffer } | { link: string }>;

async function walk(cwd: string, rel: string, into: FolderSnapshot): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(path.join(cwd, rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const child = path.posix.join(rel, entry.name);
    if (rel === '.ralph' && OWN_RECORDS.has(entry.name)) continue;
    const full = path.join(cwd, child);
    if (entry.isSymbolicLink()) into.set(child, { link: await fs.readlink(full) });
    else if (entry.isDirectory()) await walk(cwd, child, into);
    else if (entry.isFile()) into.set(child, { file: await fs.readFile(full) });
  }
}

export async function snapshotRalphFolder(cwd: string): Promise<FolderSnapshot> {
  const snapshot: FolderSnapshot = new Map();
  await walk(cwd, '.ralph', snapshot);
  return snapshot;
}

const same = (a: { file: Buffer } | { link: string }, b: { file: Buffer } | { link: string }) =>
  'file' in a && 'file' in b ? a.file.equals(b.file) : 'link' in a && 'link' in b && a.link === b.link;

/** Makes `rel`'s folders real folders again (one the agent turned into a link or file is removed first). */
async function realParents(cwd: string, rel: string): Promise<void> {
  const parts = path.posix.dirname(rel).split('/');
  for (let i = 1; i <= parts.length; i++) {
    const dir = path.join(cwd, ...parts.slice(0, i));
    const st = await fs.lstat(dir).catch(() => null);
    if (st?.isDirectory()) continue;
    if (st) await fs.rm(dir, { force: true });
    await fs.mkdir(dir);
  }
}

/**
 * Puts `.ralph/` back as `before` had it, except `skip` (the tool's own
 * files, which their own restore handles). Returns the paths it put back or removed.
 */
export async function undoRalphFolder(
  cwd: string,
  before: FolderSnapshot,
  headBefore: string,
  skip: (rel: string) => boolean,
): Promise<string[]> {
  if (protectionRemoved('ralph-files')) return [];
  const now = await snapshotRalphFolder(cwd);
  const changed: string[] = [];
  for (const rel of now.keys()) {
    if (skip(rel) || before.has(rel)) continue;
    await fs.rm(path.join(cwd, rel), { force: true, recursive: true });
    changed.push(rel);
  }
  for (const [rel, entry] of before) {
    if (skip(rel)) continue;
    const current = now.get(rel);
    if (current && same(current, entry)) continue;
    await realParents(cwd, rel);
    const full = path.join(cwd, rel);
    await fs.rm(full, { force: true, recursive: true });
    if ('file' in entry) await fs.writeFile(full, entry.file, { flag: 'wx' });
    else await fs.symlink(entry.link, full);
    changed.push(rel);
  }
  if (changed.length > 0) await commitUndone(cwd, headBefore, changed);
  return changed.sort();
}

/** What the agent committed among the paths is committed back by ralph; the rest was never committed. */
async function commitUndone(cwd: string, headBefore: string, changed: string[]): Promise<void> {
  const committed = (
    await git(['diff', '--name-only', '-z', '--no-renames', headBefore, 'HEAD', '--', '.ralph'], { cwd })
  )
    .split('\0')
    .filter((p) => p !== '' && changed.includes(p));
  if (committed.length > 0)
    await commitPaths(cwd, committed, "chore(ralph): undo the attempt's changes to .ralph");
}
