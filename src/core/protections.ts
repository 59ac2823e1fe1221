/**
 * The protections against a hostile checkout, each of which the security
 * suite (test/security) removes in turn to show that its attack then works.
 * Only ralph's own environment can remove one — never the checkout, the
 * config, or anything the agent can write — and the variable never enters
 * the sandbox. Not a user setting: it exists so that the tests can fail.
 * (Read from the environment here, in core, because git, state and agents all ask.)
 */
export const PROTECTIONS = [
  /** `hardened-args.ts`: no fsmonitor, hooks, submodules, drivers. */
  'git-hardening',
  /** `layout-guard.ts`: the git directory's layout checked before each use. */
  'git-layout',
  /** `refs-guard.ts`: refs other than the run's own put back after an attempt. */
  'refs',
  /** Ralph's own files written without following links; tool paths the agent made removed. */
  'no-follow',
  /** The attempt's changes to `.ralph/**` undone. */
  'ralph-files',
  /** The agent's `--version` check inside the sandbox. */
  'version-in-box',
  /** `--no-worktree`: the `.ralph` folder pinned in the sandbox. */
  'run-folder',
] as const;
export type Protection = (typeof PROTECTIONS)[number];

/** The variable the security suite sets. */
export const UNPROTECTED_ENV = 'RALPH_TEST_UNPROTECTED';

let removed: ReadonlySet<string> | undefined;

export function protectionRemoved(name: Protection): boolean {
  removed ??= new Set((process.env[UNPROTECTED_ENV] ?? '').split(',').map((s) => s.trim()));
  return removed.has(name);
}
