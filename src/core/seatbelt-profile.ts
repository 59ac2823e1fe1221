/**
 * A sandbox plan as a macOS sandbox-exec (Seatbelt) profile: the same rules
 * as bubblewrap's mounts, said as rules. In a profile the last rule that
 * matches an operation decides, so the order is the rule, as with mounts:
 * no writes; then the writable paths; no reads under `$HOME`; then what is
 * shown there again; then the masks and the protected paths, which win over
 * everything.
 */
import path from 'node:path';
import { isWithin, type SandboxPlan } from './sandbox-plan.js';

/** A string in a profile: backslashes and quotes escaped. */
const quoted = (text: string): string => `"${text.replace(/[\\"]/g, '\\$&')}"`;
const subpath = (p: string): string => `(subpath ${quoted(p)})`;
const literal = (p: string): string => `(literal ${quoted(p)})`;

/** What any process writes to: the null device, its terminal, its own descriptors. */
const DEVICES = [
  literal('/dev/null'),
  literal('/dev/zero'),
  literal('/dev/tty'),
  literal('/dev/ptmx'),
  literal('/dev/dtracehelper'),
  '(regex #"^/dev/ttys[0-9]+$")',
  '(regex #"^/dev/fd/")',
];

function rule(action: 'allow' | 'deny', operations: string, filters: readonly string[]): string[] {
  if (filters.length === 0) return [];
  return [`(${action} ${operations}`, ...filters.map((f) => `  ${f}`), ')'];
}

/** The directories between `top` and `p` (both included, `p` excluded): looked up on the way to `p`. */
function lookups(p: string, top: string): string[] {
  const out: string[] = [];
  for (let dir = path.dirname(p); isWithin(dir, top); dir = path.dirname(dir)) {
    out.push(dir);
    if (dir === top) break;
  }
  return out;
}

export function seatbeltProfile(plan: SandboxPlan): string {
  const shown = [...plan.readOnly, ...plan.writable].filter((p) => plan.hidden.some((h) => isWithin(p, h)));
  const metadata = [
    ...new Set(shown.flatMap((p) => lookups(p, plan.hidden.find((h) => isWithin(p, h)) ?? p))),
  ];
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    ...rule('allow', 'file-write*', [...[...plan.writable, plan.scratch].map(subpath), ...DEVICES]),
    ...rule('deny', 'file-read*', plan.hidden.map(subpath)),
    ...rule('allow', 'file-read*', shown.map(subpath)),
    // Reading a shown path resolves every directory above it: their metadata only, never their listing.
    ...rule('allow', 'file-read-metadata', metadata.map(literal)),
    ...rule(
      'deny',
      'file-read* file-write*',
      plan.masked.map((m) => subpath(m.path)),
    ),
    // A socket is reached by connecting to it, which the file rules do not cover.
    ...rule(
      'deny',
      'network-outbound',
      plan.masked.map((m) => `(remote unix-socket ${subpath(m.path)})`),
    ),
    ...rule('deny', 'file-write*', plan.protected.map(subpath)),
    ...rule('deny', 'file-write-unlink', plan.pinned.map(literal)),
    ...(plan.network === 'none' ? ['(deny network*)'] : []),
  ];
  return `${lines.join('\n')}\n`;
}
