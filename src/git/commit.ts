import { existsSync } from 'node:fs';
import path from 'node:path';
import { isTemporaryFile } from '../core/temporary-files.js';
import { git, runGit } from './git.js';
import { headSha } from './repo.js';
import { parsePorcelainZ } from './status.js';

/**
 * Commits exactly `paths` (relative to `cwd`: additions, edits and deletions)
 * with `message`, leaving anything else that happens to be staged out of the
 * commit. Hooks run as usual. A path that neither exists nor is tracked is
 * skipped. A folder among the paths commits its changed files one by one,
 * never a temporary file a killed run left there. Returns the new commit's
 * sha, or null when there was nothing to commit.
 */
export async function commitPaths(
  cwd: string,
  paths: readonly string[],
  message: string,
): Promise<string | null> {
  const wanted = await existingOrTracked(cwd, paths);
  if (wanted.length === 0) return null;
  const status = await runGit(
    ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', ...wanted],
    { cwd },
  );
  const changed = parsePorcelainZ(status.stdout)
    .map((e) => e.path)
    .filter((p) => !isTemporaryFile(p))
    .map((p) => `:(top,literal)${p}`);
  if (changed.length === 0) return null;
  await git(['add', '--all', '--', ...changed], { cwd });
  const staged = await git(['diff', '--cached', '--name-only', '--no-renames', '-z', '--', ...changed], {
    cwd,
  });
  if (staged === '') return null;
  // With paths, `git commit` commits only them (`--only`), whatever else is in the index.
  await git(['commit', '--quiet', '-m', message, '--', ...changed], { cwd });
  return headSha(cwd);
}

async function existingOrTracked(cwd: string, paths: readonly string[]): Promise<string[]> {
  // `:(literal)` so a path with glob characters means only itself.
  const specs = paths.map((p) => `:(literal)${p}`);
  if (specs.length === 0) return [];
  const tracked = new Set(
    (await git(['ls-files', '-z', '--full-name', '--', ...specs], { cwd })).split('\0').filter(Boolean),
  );
  const prefix = await git(['rev-parse', '--show-prefix'], { cwd });
  return paths
    .filter((p) => existsSync(path.resolve(cwd, p)) || tracked.has(path.posix.normalize(prefix + p)))
    .map((p) => `:(literal)${p}`);
}
