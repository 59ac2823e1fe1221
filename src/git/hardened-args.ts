/**
 * ralph's own git runs outside the sandbox, in a checkout the agent could
 * write: whatever the agent left there is data, never code. This is the one
 * place git's command line is built, so every command ralph runs carries the
 * same hardening:
 *
 * - no fsmonitor (a nested repository's `core.fsmonitor` runs at `git status`);
 * - no hooks (`core.hooksPath` to a path that holds none, `--no-verify` on
 *   commits and merges): a hook the agent edited, husky's `.husky/pre-commit`
 *   behind a read-only wrapper say, never runs with the user's environment;
 * - submodules ignored (a nested repository's own config is the agent's);
 * - no external diff or textconv driver named by the checkout's `.gitattributes`.
 *
 * `-c` settings travel to every git process git starts (GIT_CONFIG_PARAMETERS),
 * a submodule's included, and outrank every config file.
 */
import { protectionRemoved } from '../core/protections.js';

/** Holds no hooks, on every system: git looks for `/dev/null/<hook>` and finds none. */
const NO_HOOKS = '/dev/null';

const SETTINGS = [
  'core.fsmonitor=false',
  'submodule.recurse=false',
  'diff.ignoreSubmodules=all',
  'status.submoduleSummary=false',
  'protocol.ext.allow=never',
];

/** Subcommands that run commit hooks, and those that would run a diff or textconv driver. */
const NO_VERIFY = new Set(['commit', 'merge', 'rebase']);
const NO_DRIVERS = new Set(['diff', 'log', 'show']);
const SEQUENCING = new Set(['--abort', '--continue', '--skip', '--quit']);

/** Where the subcommand stands among git's own leading options (`-c k=v`, `-C dir`, `--no-pager`). */
function subcommandIndex(args: readonly string[]): number {
  let i = 0;
  while (i < args.length) {
    const arg = args[i] ?? '';
    if (arg === '-c' || arg === '-C') i += 2;
    else if (arg.startsWith('-')) i += 1;
    else return i;
  }
  return -1;
}

/** `args` as ralph runs them: the hardening first, the flags its subcommand takes after it. */
export function hardenedArgs(args: readonly string[]): string[] {
  if (protectionRemoved('git-hardening')) return [...args];
  const at = subcommandIndex(args);
  const sub = at < 0 ? '' : (args[at] ?? '');
  // `rev-parse --git-path hooks` must answer where the user's hooks really are (the sandbox protects them).
  const hooks = sub === 'rev-parse' ? [] : ['-c', `core.hooksPath=${NO_HOOKS}`];
  const settings = SETTINGS.flatMap((s) => ['-c', s]);
  // `--abort`, `--continue` and the like take no other option; there are no hooks to run anyway.
  const resuming = args.some((a) => SEQUENCING.has(a));
  const extra =
    NO_VERIFY.has(sub) && !resuming
      ? ['--no-verify']
      : NO_DRIVERS.has(sub)
        ? ['--no-ext-diff', '--no-textconv']
        : [];
  if (at < 0 || extra.length === 0) return [...settings, ...hooks, ...args];
  return [...settings, ...hooks, ...args.slice(0, at + 1), ...extra, ...args.slice(at + 1)];
}
