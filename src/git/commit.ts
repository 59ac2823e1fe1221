import { existsSync } from 'node:fs';
import path from 'node:path';
import { isTemporaryFile } from '../core/temporary-files.js';
import { GitError, git, runGit } from './git.js';
import { headSha } from './repo.js';
import { parsePorcelainZ } from './status.js';

/** `commitChanges`, returning the new commit's sha, or null when there was nothing to commit. */
export async function commitPaths(
  cwd: string,
  paths: readonly string[],
  message: string,
): Promise<string | null> {
  return (await commitChanges(cwd, paths, message)) ? headSha(cwd) : null;
}

/**
 * Commits exactly `paths` (relative to `cwd`: additions, edits and deletions)
 * with `message`, leaving anything else that happens to be staged out of the
 * commit. Hooks run as usual. A path that neither exists nor is tracked is
 * skipped. A folder among the paths commits its changed files one by one,
 * never a temporary file a killed run left there. Returns whether it made a
 * commit (false when the paths hold no change).
 */
export async function commitChanges(
  cwd: string,
  paths: readonly string[],
  message: string,
): Promise<boolean> {
  const wanted = await existingOrTracked(cwd, paths);
  if (wanted.length === 0) return false;
  const status = await runGit(
    ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', ...wanted],
    { cwd },
  );
  const entries = parsePorcelainZ(status.stdout).filter((e) => !isTemporaryFile(e.path));
  const changed = entries.map((e) => `:(top,literal)${e.path}`);
  if (changed.length === 0) return false;
  // `git commit` with paths takes their work-tree content itself (`--only`); only files git does
  // not know yet need adding first. One or two git processes where add, diff and commit took three.
  const untracked = entries.filter((e) => e.code === '??').map((e) => `:(top,literal)${e.path}`);
  if (untracked.length > 0) await git(['add', '--all', '--', ...untracked], { cwd });
  const commit = await runGit(['commit', '--quiet', '-m', message, '--', ...changed], {
    cwd,
    allowFailure: true,
  });
  if (commit.exitCode !== 0) {
    // As before: staged, the paths may turn out to hold no change after all (no commit then);
    // otherwise the commit's own failure (a hook's refusal, say) is the error.
    await git(['add', '--all', '--', ...changed], { cwd });
    const staged = await git(['diff', '--cached', '--name-only', '--no-renames', '-z', '--', ...changed], {
      cwd,
    });
    if (staged === '') return false;
    throw new GitError(
      ['commit', '--quiet', '-m', message, '--', ...changed],
      cwd,
      commit.exitCode,
      commit.stderr,
    );
  }
  return true;
}

async function existingOrTracked(cwd: string, paths: readonly string[]): Promise<string[]> {
  // `:(literal)` so a path with glob characters means only itself.
  const specs = paths.map((p) => `:(literal)${p}`);
  if (specs.length === 0) return [];
  // Whether a path is tracked matters only for one that is gone (a deletion to commit).
  if (paths.every((p) => existsSync(path.resolve(cwd, p)))) return specs;
  const tracked = new Set(
    (await git(['ls-files', '-z', '--full-name', '--', ...specs], { cwd })).split('\0').filter(Boolean),
  );
  const prefix = await git(['rev-parse', '--show-prefix'], { cwd });
  return paths
    .filter((p) => existsSync(path.resolve(cwd, p)) || tracked.has(path.posix.normalize(prefix + p)))
    .map((p) => `:(literal)${p}`);
}
