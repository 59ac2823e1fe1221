import { GitError, runGit } from './git.js';
import { headSha } from './repo.js';

export interface CommitInfo {
  sha: string;
  subject: string;
}

const FIELD = '\x1f';

/**
 * Commits reachable from HEAD but not from `baseSha`, oldest first. With a
 * null base (the attempt began in a repository with no commits) every commit
 * counts. Empty when HEAD is unborn or nothing was committed.
 */
export async function commitsSince(cwd: string, baseSha: string | null): Promise<CommitInfo[]> {
  const range = baseSha === null ? 'HEAD' : `${baseSha}..HEAD`;
  const stdout = await outputUnlessUnborn(cwd, baseSha, [
    'log',
    '--reverse',
    '-z',
    `--format=%H${FIELD}%s`,
    range,
    '--',
  ]);
  return stdout
    .split('\0')
    .filter((record) => record !== '')
    .map((record) => {
      const at = record.indexOf(FIELD);
      return { sha: record.slice(0, at).trim(), subject: record.slice(at + 1) };
    });
}

/**
 * The output of a git command about HEAD, or '' when HEAD is unborn. With a
 * base commit, HEAD is usually born: the command runs at once, and only its
 * failure asks whether HEAD exists (one git process instead of two per call,
 * and these run on every iteration).
 */
async function outputUnlessUnborn(cwd: string, baseSha: string | null, args: string[]): Promise<string> {
  if (baseSha === null) {
    if ((await headSha(cwd)) === null) return '';
    return (await runGit(args, { cwd })).stdout;
  }
  const result = await runGit(args, { cwd, allowFailure: true });
  if (result.exitCode === 0) return result.stdout;
  if ((await headSha(cwd)) === null) return '';
  throw new GitError(args, cwd, result.exitCode, result.stderr);
}

/**
 * Files touched by the commits since `baseSha` (added, modified, deleted; a
 * rename lists both paths), relative to the work tree root, sorted.
 * Uncommitted changes are not included: see `statusPorcelain`.
 */
export async function filesChangedSince(cwd: string, baseSha: string | null): Promise<string[]> {
  const args =
    baseSha === null
      ? ['ls-tree', '-r', '-z', '--full-tree', '--name-only', 'HEAD']
      : ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', baseSha, 'HEAD', '--'];
  const stdout = await outputUnlessUnborn(cwd, baseSha, args);
  return [...new Set(stdout.split('\0').filter((p) => p !== ''))].sort();
}

/** True when `ancestor` is `sha` or one of its ancestors. */
export async function isAncestor(cwd: string, ancestor: string, sha: string): Promise<boolean> {
  const args = ['merge-base', '--is-ancestor', ancestor, sha];
  const { exitCode, stderr } = await runGit(args, { cwd, allowFailure: true });
  if (exitCode === 0) return true;
  if (exitCode === 1) return false;
  // Any other exit (an unknown revision) is an error, not "no".
  throw new GitError(args, cwd, exitCode, stderr);
}
