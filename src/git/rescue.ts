import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GitError, git, runGit } from './git.js';
import { headSha } from './repo.js';
import { TOOL_IDENTITY } from './tool-identity.js';

export const RESCUE_REF_PREFIX = 'refs/ralph/rescue/';

export interface RescueResult {
  ref: string;
  sha: string;
  /** False when the tree had no uncommitted change, so the ref points at HEAD itself. */
  snapshot: boolean;
}

/**
 * Saves an attempt's work under `refs/ralph/rescue/<name>` before it is rolled
 * back, without touching the checkout, the real index or any branch.
 *
 * HEAD already carries the commits made since the attempt began, so only the
 * uncommitted state needs a commit of its own. `git stash create` would miss
 * untracked files, so the snapshot is built on a private copy of the index
 * (`GIT_INDEX_FILE`): `git add -A` (ignored files and `.ralph/` excluded),
 * `write-tree`, then `commit-tree` with HEAD as parent. With nothing
 * uncommitted the ref simply points at HEAD.
 *
 * Recover with `git switch -c <branch> refs/ralph/rescue/<name>`, or see the
 * work with `git diff <base> refs/ralph/rescue/<name>`. An existing ref is
 * never overwritten: that throws a `GitError`.
 */
export async function stashToRescueRef(cwd: string, name: string, message: string): Promise<RescueResult> {
  const ref = `${RESCUE_REF_PREFIX}${name}`;
  const check = await runGit(['check-ref-format', ref], { cwd, allowFailure: true });
  if (check.exitCode !== 0 || name.startsWith('/') || name === '') {
    throw new GitError(
      ['check-ref-format', ref],
      cwd,
      check.exitCode,
      `invalid rescue ref name ${JSON.stringify(name)}`,
    );
  }

  const head = await headSha(cwd);
  const tree = await snapshotTree(cwd);
  const headTree = head === null ? null : await git(['rev-parse', `${head}^{tree}`], { cwd });
  let sha: string;
  let snapshot = false;
  if (head !== null && tree === headTree) {
    sha = head;
  } else {
    const parents = head === null ? [] : ['-p', head];
    sha = await git(['commit-tree', tree, ...parents, '-m', message], { cwd, env: TOOL_IDENTITY });
    snapshot = true;
  }
  // An empty old value makes update-ref refuse to replace an existing rescue.
  await git(['update-ref', '-m', message, ref, sha, ''], { cwd });
  return { ref, sha, snapshot };
}

/** The work tree's full state as a tree object, written through a throwaway index. */
async function snapshotTree(cwd: string): Promise<string> {
  const realIndex = path.resolve(cwd, await git(['rev-parse', '--git-path', 'index'], { cwd }));
  const dir = await mkdtemp(path.join(tmpdir(), 'ralph-rescue-'));
  const env = { GIT_INDEX_FILE: path.join(dir, 'index') };
  try {
    // Starting from a copy keeps git's stat cache, so unchanged files are not re-hashed.
    await copyFile(realIndex, env.GIT_INDEX_FILE).catch((error: unknown) => {
      if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
    });
    await git(['add', '--all', '--', ':/', ':(top,exclude).ralph'], { cwd, env });
    return await git(['write-tree'], { cwd, env });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
