import path from 'node:path';
import { runGitSync } from './git.js';

/** A checkout's place in its repository, as git resolves it (worktrees, submodules, `core.hooksPath`). */
export interface CheckoutLayout {
  /** The top of the checkout. */
  toplevel: string;
  /** Its own git directory: `.git`, or `<common>/worktrees/<name>` for a linked worktree. */
  gitDir: string;
  /** The directory its checkouts share: objects, refs, config, hooks. */
  commonDir: string;
  /** Where git runs hooks from. */
  hooksDir: string;
}

/** The layout of the checkout `cwd` is in, or null when it is not in one (or git is missing). */
export function readCheckoutLayout(cwd: string): CheckoutLayout | null {
  const paths = revParse(cwd, ['--show-toplevel', '--absolute-git-dir', '--git-common-dir']);
  const [toplevel, gitDir, commonDir] = paths ?? [];
  if (!toplevel || !gitDir || !commonDir) return null;
  // Asked apart: a core.hooksPath git cannot resolve (a relative one in a linked worktree) fails the whole call.
  const hooks = revParse(cwd, ['--git-path', 'hooks'])?.[0];
  return {
    toplevel: path.resolve(toplevel),
    gitDir: path.resolve(gitDir),
    commonDir: path.resolve(commonDir),
    hooksDir: hooks ? path.resolve(toplevel, hooks) : path.join(path.resolve(commonDir), 'hooks'),
  };
}

function revParse(cwd: string, args: readonly string[]): string[] | null {
  try {
    const run = runGitSync(['rev-parse', '--path-format=absolute', ...args], { cwd });
    return run.exitCode === 0 ? run.stdout.split('\n').filter((line) => line !== '') : null;
  } catch {
    return null;
  }
}
