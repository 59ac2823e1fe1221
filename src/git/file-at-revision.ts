import path from 'node:path';
import { git, runGit } from './git.js';
import { canonicalPath } from './worktree.js';

/**
 * The content of `file` (an absolute path inside the work tree at `cwd`) as
 * committed at `rev`; null when the revision, the path or a file (not a
 * folder) at that path does not exist there.
 */
export async function fileAtRevision(cwd: string, rev: string, file: string): Promise<string | null> {
  if (rev.startsWith('-')) return null;
  const top = canonicalPath(await git(['rev-parse', '--show-toplevel'], { cwd }));
  const rel = path.relative(top, canonicalPath(file));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const spec = `${rev}:${rel.split(path.sep).join('/')}`;
  const result = await runGit(['cat-file', 'blob', spec], { cwd, allowFailure: true });
  return result.exitCode === 0 ? result.stdout : null;
}
