import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { canonicalPath, listWorktrees } from './worktree.js';

export interface RalphWorktree {
  /** The folder name under `.ralph/worktrees/`: the PRD / run name. */
  name: string;
  path: string;
  branch: string | null;
  /** git knows it as a work tree. */
  registered: boolean;
  /** Its folder exists. */
  present: boolean;
}

/**
 * ralph's worktrees: every registered work tree directly under `parent`
 * (`.ralph/worktrees/`), present or not, plus folders there git does not know.
 */
export async function listRalphWorktrees(cwd: string, parent: string): Promise<RalphWorktree[]> {
  const base = canonicalPath(parent);
  const found = new Map<string, RalphWorktree>();
  for (const w of (await mayHaveLinkedWorktrees(cwd)) ? await listWorktrees(cwd) : []) {
    const full = canonicalPath(w.path);
    if (path.dirname(full) !== base) continue;
    const name = path.basename(full);
    found.set(name, { name, path: w.path, branch: w.branch, registered: true, present: !w.prunable });
  }
  let entries: string[] = [];
  try {
    entries = (await readdir(parent, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    // No worktrees folder yet.
  }
  for (const name of entries) {
    if (!found.has(name))
      found.set(name, {
        name,
        path: path.join(parent, name),
        branch: null,
        registered: false,
        present: true,
      });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * False only when `cwd` is a main checkout whose `.git` folder has no
 * `worktrees` folder: git keeps one there for every linked work tree, so
 * there is none to list and no git process to start (`ralph list` runs this
 * on every call). Anything else (a `.git` file, another cwd) asks git.
 */
async function mayHaveLinkedWorktrees(cwd: string): Promise<boolean> {
  const dotGit = await stat(path.join(cwd, '.git')).catch(() => null);
  if (!dotGit?.isDirectory()) return true;
  return (await stat(path.join(cwd, '.git', 'worktrees')).catch(() => null)) !== null;
}
