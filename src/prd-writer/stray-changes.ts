import { statusPorcelain } from '../git/status.js';
import { RALPH_DIR } from '../state/layout.js';

/** Paths with uncommitted changes, or null outside a git work tree. */
async function changedPaths(root: string): Promise<Set<string> | null> {
  try {
    return new Set((await statusPorcelain(root)).map((entry) => entry.path));
  } catch {
    return null;
  }
}

/**
 * Runs `work` and lists files outside `.ralph/` that changed meanwhile: a PRD
 * session should write the PRD and nothing else, so these are worth showing.
 * Files that were already dirty before are not the agent's doing and are not listed.
 */
export async function watchStrayChanges<T>(
  root: string,
  work: () => Promise<T>,
): Promise<{ result: T; stray: string[] }> {
  const before = await changedPaths(root);
  const result = await work();
  const after = before === null ? null : await changedPaths(root);
  if (before === null || after === null) return { result, stray: [] };
  const stray = [...after].filter((p) => !before.has(p) && !p.startsWith(`${RALPH_DIR}/`)).sort();
  return { result, stray };
}
