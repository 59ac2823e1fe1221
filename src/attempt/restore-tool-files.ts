import { commitPaths } from '../git/index.js';
import { restorePathsFrom } from '../git/restore-paths.js';

/**
 * The tool's record wins (design principle 1): whatever the agent did to the
 * tool's tracked files, committed or not, is put back as it was at
 * `headBefore` — and committed with `commitAs` when given. Returns the
 * restored paths.
 */
export async function restoreToolFiles(
  cwd: string,
  headBefore: string,
  toolPaths: readonly string[],
  commitAs?: string,
): Promise<string[]> {
  const restored = await restorePathsFrom(cwd, headBefore, toolPaths);
  if (restored.length > 0 && commitAs !== undefined) await commitPaths(cwd, restored, commitAs);
  return restored;
}
