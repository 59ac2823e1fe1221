import { readdir } from 'node:fs/promises';
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
  for (const w of await listWorktrees(cwd)) {
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
