import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StoryVerdict } from '../core/story-verdict.js';
import { git, runGit } from './git.js';
import { TOOL_IDENTITY } from './tool-identity.js';

// The verdict's schema (zod) loads when a verdict is read or written, not for
// `ralph status` on a project without story branches.
const verdictMessages = () => import('../core/story-verdict.js');

export interface StoryBranch {
  /** Short name, e.g. `ralph-stories/demo/US-001`. */
  branch: string;
  tip: string;
  /** Set when the tip is a verdict commit on top of the story's work. */
  verdict: StoryVerdict | null;
}

/** The sha a ref points at, or null when it does not exist. */
export async function refSha(cwd: string, ref: string): Promise<string | null> {
  const sha = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd, allowFailure: true });
  return sha === '' ? null : sha;
}

/** Every branch under `prefix` (a full ref prefix ending in `/`), with its verdict if it has one. */
export async function listStoryBranches(cwd: string, prefix: string): Promise<StoryBranch[]> {
  if (!(await mayHaveRefsUnder(cwd, prefix))) return [];
  const out = await git(['for-each-ref', '--format=%(refname)%00%(objectname)', prefix], { cwd });
  const branches: StoryBranch[] = [];
  for (const line of out.split('\n')) {
    const [ref, tip] = line.split('\0');
    if (!ref || !tip) continue;
    branches.push({ branch: ref.replace(/^refs\/heads\//, ''), tip, verdict: await verdictAt(cwd, tip) });
  }
  return branches;
}

/** The verdict `sha` records, when it is a verdict commit whose parent is the work it names. */
export async function verdictAt(cwd: string, sha: string): Promise<StoryVerdict | null> {
  const { stdout, exitCode } = await runGit(['log', '-1', '--format=%P%x00%B', sha, '--'], {
    cwd,
    allowFailure: true,
  });
  if (exitCode !== 0) return null;
  const at = stdout.indexOf('\0');
  const parents = stdout.slice(0, at).trim().split(' ');
  const verdict = (await verdictMessages()).parseVerdictMessage(stdout.slice(at + 1));
  return verdict !== null && parents.length === 1 && parents[0] === verdict.head ? verdict : null;
}

/**
 * Records a worker's verdict on its branch: an empty commit on top of
 * `verdict.head` (same tree), moved to only if the branch still points at
 * `expected` (the work itself; or the verdict a resolution replaces).
 * Returns the verdict commit.
 */
export async function writeVerdict(
  cwd: string,
  branch: string,
  verdict: StoryVerdict,
  expected: string = verdict.head,
): Promise<string> {
  const tree = await git(['rev-parse', `${verdict.head}^{tree}`], { cwd });
  const message = (await verdictMessages()).formatVerdictMessage(verdict);
  const sha = await git(['commit-tree', tree, '-p', verdict.head, '-m', message], {
    cwd,
    env: TOOL_IDENTITY,
  });
  await git(['update-ref', '-m', 'ralph: verified', `refs/heads/${branch}`, sha, expected], { cwd });
  return sha;
}

/** Deletes a branch if it exists; a branch checked out somewhere must have its worktree removed first. */
export async function deleteBranchIfPresent(cwd: string, branch: string): Promise<void> {
  await runGit(['update-ref', '-d', `refs/heads/${branch}`], { cwd, allowFailure: true });
}

/**
 * False only when `cwd` is a main checkout whose refs are files and none is
 * under `prefix`: neither a loose ref folder for it nor a line in
 * packed-refs. `ralph status` asks on every call, and a project that never
 * ran in parallel has no story branches; anything else (a `.git` file, the
 * reftable format) asks git.
 */
async function mayHaveRefsUnder(cwd: string, prefix: string): Promise<boolean> {
  const gitDir = path.join(cwd, '.git');
  const exists = (file: string) =>
    stat(file).then(
      () => true,
      () => false,
    );
  const dotGit = await stat(gitDir).catch(() => null);
  if (!dotGit?.isDirectory() || (await exists(path.join(gitDir, 'reftable')))) return true;
  if (await exists(path.join(gitDir, ...prefix.split('/')))) return true;
  const packed = await readFile(path.join(gitDir, 'packed-refs'), 'utf8').catch(() => '');
  return packed.includes(` ${prefix}`);
}
