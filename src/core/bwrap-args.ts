/**
 * A sandbox plan as bubblewrap's arguments. Mounts stack: a later mount on a
 * path covers every earlier one at or below it, so the order is the rule —
 * the whole filesystem read-only; `$HOME` and `/tmp` empty; what is shown
 * again, shallowest first, so the more specific path wins; then the
 * protected paths, which win over everything. `$HOME` is made read-only
 * last, once the paths shown in it have their mount points.
 */
import type { SandboxPlan } from './sandbox-plan.js';

/** The namespaces and limits every sandboxed command gets, whoever runs ralph. */
export const BWRAP_ISOLATION: readonly string[] = [
  // A user namespace of its own: bwrap needs no setuid bit, and root inside maps to the caller outside.
  '--unshare-user',
  // Its own process tree: it cannot see or signal ralph or anything else of the user's.
  '--unshare-pid',
  '--unshare-ipc',
  '--unshare-uts',
  '--unshare-cgroup-try',
  // Whatever the command starts dies with it.
  '--die-with-parent',
  // No capabilities, even for root: none could remount what is read-only.
  '--cap-drop',
  'ALL',
];

const depth = (p: string): number => p.split('/').filter((s) => s !== '').length;

/** Shallowest first; at one depth, read-only before writable (an explicit write wins over a read). */
function byDepth<T extends { path: string; rank: number }>(entries: T[]): T[] {
  return [...entries].sort((a, b) => depth(a.path) - depth(b.path) || a.rank - b.rank);
}

/** `bwrap <these> -- <command>`: the command runs in `cwd`, inside the plan. */
export function bwrapArgs(plan: SandboxPlan, cwd: string): string[] {
  const args = [...BWRAP_ISOLATION, ...(plan.network === 'none' ? ['--unshare-net'] : [])];
  // /proc read-only: a program inside cannot write another's memory through /proc/<pid>/mem (the seccomp
  // filter refuses ptrace and process_vm_writev, the other ways in).
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--remount-ro', '/proc');
  const empty = byDepth([...plan.hidden, plan.scratch].map((p) => ({ path: p, rank: 0 })));
  for (const { path } of empty) args.push('--tmpfs', path);
  const shown = byDepth([
    ...plan.readOnly.map((p) => ({ path: p, rank: 0, flag: '--ro-bind' })),
    ...plan.writable.map((p) => ({ path: p, rank: 1, flag: '--bind' })),
  ]);
  for (const { path, flag } of shown)
    args.push(flag, flag === '--bind' ? (plan.sources[path] ?? path) : path, path);
  for (const { path } of byDepth(plan.protected.map((p) => ({ path: p, rank: 0 })))) {
    args.push('--ro-bind', path, path);
  }
  for (const mask of plan.masked) {
    if (mask.kind === 'dir') args.push('--tmpfs', mask.path, '--remount-ro', mask.path);
    else args.push('--ro-bind', '/dev/null', mask.path);
  }
  for (const dir of plan.hidden) args.push('--remount-ro', dir);
  args.push('--chdir', cwd);
  return args;
}
