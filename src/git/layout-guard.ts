/**
 * The layout of a checkout's git directory, checked before each of ralph's
 * own git commands in a checkout an attempt has run in. Git finds its config
 * through that layout: a `commondir` file in the git directory, or a `.git`
 * file naming another one, would point every later git command (ralph's,
 * outside the sandbox, and the user's) at a config the agent wrote, with an
 * fsmonitor or a hook in it. Git never writes a `commondir` into a
 * repository's own `.git`, and a linked worktree's names its repository: any
 * other layout, or one that changed under the run, is refused.
 */
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ExitCode, RalphError } from '../core/errors.js';
import { protectionRemoved } from '../core/protections.js';

export class GitLayoutError extends RalphError {
  constructor(checkout: string, problem: string) {
    super(`refusing to run git in ${checkout}: ${problem}`, 'git-layout', ExitCode.WorkLeft, [
      'something in the checkout (an agent?) changed where git reads its configuration from;',
      'look at the git directory before running git there yourself',
    ]);
    this.name = 'GitLayoutError';
  }
}

/** What a valid layout comes to: how `.git` is made and the repository it belongs to. */
type Layout = { ok: true; mark: string } | { ok: false; problem: string };

const readOrNull = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

const kindOf = (p: string): 'dir' | 'file' | 'link' | 'other' | null => {
  try {
    const st = lstatSync(p);
    return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
  } catch {
    return null;
  }
};

/** The checkout's top as git finds it: the nearest folder, `dir` or above, holding a `.git`. */
function topOf(dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    if (kindOf(path.join(at, '.git')) !== null) return at;
    if (path.dirname(at) === at) return dir;
  }
}

/** Reads the layout of the git directory of the checkout `dir` is in, from the disk, without running git. */
export function readGitLayout(dir: string): Layout {
  const checkout = topOf(dir);
  const dotGit = path.join(checkout, '.git');
  const kind = kindOf(dotGit);
  if (kind === 'dir') {
    if (kindOf(path.join(dotGit, 'commondir')) !== null)
      return { ok: false, problem: `${dotGit}/commondir exists (git never makes one there)` };
    return { ok: true, mark: `dir:${dotGit}` };
  }
  if (kind !== 'file')
    return { ok: false, problem: `${dotGit} is ${kind === null ? 'missing' : `a ${kind}`}` };
  const named = /^gitdir: (.+)$/m.exec(readOrNull(dotGit) ?? '')?.[1]?.trim();
  if (!named) return { ok: false, problem: `${dotGit} does not name a git directory` };
  const gitDir = path.resolve(checkout, named);
  const common = readOrNull(path.join(gitDir, 'commondir'))?.trim();
  // A linked worktree's git directory is `<common>/worktrees/<name>`, its commondir `../..`.
  const expected = path.resolve(gitDir, '..', '..');
  if (
    common === undefined ||
    path.resolve(gitDir, common) !== expected ||
    path.basename(path.dirname(gitDir)) !== 'worktrees'
  )
    return {
      ok: false,
      problem: `${gitDir} is not a worktree of the repository it names (${common ?? 'no commondir'})`,
    };
  return { ok: true, mark: `worktree:${expected}` };
}

/** Checkouts an attempt has run in, with the layout they had when first guarded. */
const guarded = new Map<string, string>();

/**
 * Called as an attempt starts in `checkout`: refuses a layout that is not
 * git's own, or that changed since the run first guarded the checkout.
 */
export function guardGitLayout(checkout: string): void {
  if (protectionRemoved('git-layout')) return;
  const key = path.resolve(checkout);
  const layout = readGitLayout(key);
  if (!layout.ok) throw new GitLayoutError(key, layout.problem);
  const before = guarded.get(key);
  if (before === undefined) guarded.set(key, layout.mark);
  else if (before !== layout.mark)
    throw new GitLayoutError(key, `its git directory changed (${before} → ${layout.mark})`);
}

/** Before each git command: a guarded checkout's layout must still be the one it had. */
export function checkGitLayout(cwd: string): void {
  if (guarded.size === 0) return;
  const key = path.resolve(cwd);
  // A checkout removed since (a story's worktree after landing): git says so itself.
  if (guarded.has(key) && kindOf(key) === 'dir') guardGitLayout(key);
}
