import { git, runGit } from './git.js';
import { isAncestor } from './history.js';
import { currentBranch } from './repo.js';

/** True when `refs/heads/<name>` exists. */
export async function branchExists(cwd: string, name: string): Promise<boolean> {
  const { exitCode } = await runGit(['show-ref', '--verify', '--quiet', `refs/heads/${name}`], {
    cwd,
    allowFailure: true,
  });
  return exitCode === 0;
}

async function refExists(cwd: string, ref: string): Promise<boolean> {
  const sha = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd, allowFailure: true });
  return sha !== '';
}

/**
 * The project's default branch: what `origin/HEAD` points at, else `main`,
 * else `master`, else whatever is checked out. Null only in a repository with
 * a detached HEAD and none of those.
 */
export async function defaultBranch(cwd: string): Promise<string | null> {
  const remoteHead = await git(['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], {
    cwd,
    allowFailure: true,
  });
  if (remoteHead.startsWith('origin/')) return remoteHead.slice('origin/'.length);
  for (const name of ['main', 'master']) if (await branchExists(cwd, name)) return name;
  return currentBranch(cwd);
}

/** Where a branch based on `base` starts: the local branch, else `origin/<base>` (not fetched first). */
export async function startPointOf(cwd: string, base: string): Promise<string> {
  if (await branchExists(cwd, base)) return base;
  if (await refExists(cwd, `refs/remotes/origin/${base}`)) return `origin/${base}`;
  return base;
}

/**
 * What ralph remembers about a branch it created, kept in the repository's
 * config (`branch.<name>.ralphName`, `branch.<name>.ralphBase`), so it goes
 * away with the branch (`git branch -d` drops the section) and is shared by
 * every work tree.
 */
export interface RalphBranch {
  branch: string;
  /** The PRD / run name the branch works on. */
  name?: string;
  /** The branch it was created from, which `ralph merge` merges back into. */
  base?: string;
}

export async function recordRalphBranch(
  cwd: string,
  branch: string,
  info: { name: string; base?: string | null },
): Promise<void> {
  await git(['config', `branch.${branch}.ralphName`, info.name], { cwd });
  if (info.base) await git(['config', `branch.${branch}.ralphBase`, info.base], { cwd });
}

/** Every branch with a ralph record, from the repository config. */
export async function ralphBranches(cwd: string): Promise<RalphBranch[]> {
  const { stdout } = await runGit(['config', '--null', '--get-regexp', '^branch\\..*\\.ralph(name|base)$'], {
    cwd,
    allowFailure: true,
  });
  const byBranch = new Map<string, RalphBranch>();
  for (const record of stdout.split('\0')) {
    const newline = record.indexOf('\n');
    if (newline < 0) continue;
    const key = record.slice(0, newline);
    const value = record.slice(newline + 1);
    // Section and variable names come back lower-cased; the branch (subsection) keeps its case.
    const match = /^branch\.(.+)\.(ralphname|ralphbase)$/.exec(key);
    const branch = match?.[1];
    if (branch === undefined || !(await branchExists(cwd, branch))) continue;
    const entry = byBranch.get(branch) ?? { branch };
    if (match?.[2] === 'ralphname') entry.name = value;
    else entry.base = value;
    byBranch.set(branch, entry);
  }
  return [...byBranch.values()];
}

export async function ralphBranch(cwd: string, branch: string): Promise<RalphBranch | null> {
  return (await ralphBranches(cwd)).find((b) => b.branch === branch) ?? null;
}

/** Switches the checkout at `cwd` to `branch`, creating it from HEAD when it does not exist. */
export async function switchBranch(cwd: string, branch: string, options: { create: boolean }): Promise<void> {
  await git(options.create ? ['switch', '--quiet', '-c', branch] : ['switch', '--quiet', branch], { cwd });
}

/** Deletes the branch whatever its state; callers decide first whether that loses work. */
export async function deleteBranch(cwd: string, branch: string): Promise<void> {
  await git(['branch', '--quiet', '-D', branch], { cwd });
}

/** The branch's upstream (`origin/<x>`), or null when it has none. */
export async function upstreamOf(cwd: string, branch: string): Promise<string | null> {
  const ref = await git(
    ['rev-parse', '--verify', '--quiet', '--symbolic-full-name', `${branch}@{upstream}`],
    { cwd, allowFailure: true },
  );
  return ref === '' ? null : ref;
}

/**
 * Whether deleting `branch` would lose commits: false when its tip is already
 * in one of `into` (e.g. its base branch) or in its upstream.
 */
export async function isMergedInto(cwd: string, branch: string, into: readonly string[]): Promise<boolean> {
  const targets = [...into];
  const upstream = await upstreamOf(cwd, branch);
  if (upstream) targets.push(upstream);
  for (const target of targets) {
    if (!(await refExists(cwd, target))) continue;
    if (await isAncestor(cwd, `refs/heads/${branch}`, target)) return true;
  }
  return false;
}
