/**
 * What a path looks like from inside a sandbox, read from the sandbox's own
 * description: bubblewrap's arguments (mounts stack: the last mount at or
 * above a path decides) and a sandbox-exec profile (the last matching rule
 * decides). The same questions asked of both say whether the two platforms
 * keep the same rules.
 */
import path from 'node:path';

export interface Access {
  /** The command reads the host's file there. */
  reads: boolean;
  /** What it writes there reaches the host's disk. */
  writes: boolean;
  /** It cannot rename or remove the path itself. */
  pinned: boolean;
}

const within = (p: string, dir: string): boolean => {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

type MountKind = 'bind' | 'ro-bind' | 'tmpfs' | 'dev' | 'proc' | 'null';
interface Mount {
  dest: string;
  kind: MountKind;
  readOnly: boolean;
}

const TWO_ARGS = new Set(['--bind', '--ro-bind', '--bind-try', '--ro-bind-try', '--dev-bind']);
const ONE_ARG = new Set(['--tmpfs', '--dev', '--proc', '--remount-ro', '--chdir', '--cap-drop']);

export interface BwrapView {
  access(p: string): Access;
  /** `--unshare-net` given. */
  offline: boolean;
  /** Writes under `p` land in a private, empty directory (a tmpfs). */
  privateWrites(p: string): boolean;
}

export function bwrapView(args: readonly string[]): BwrapView {
  const mounts: Mount[] = [];
  let offline = false;
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    const flag = args[i] ?? '';
    if (flag === '--unshare-net') offline = true;
    if (TWO_ARGS.has(flag)) {
      const src = args[i + 1] ?? '';
      const dest = args[i + 2] ?? '';
      const kind: MountKind = src === '/dev/null' ? 'null' : flag.startsWith('--ro-') ? 'ro-bind' : 'bind';
      mounts.push({ dest, kind, readOnly: kind !== 'bind' });
      i += 2;
    } else if (ONE_ARG.has(flag)) {
      const value = args[i + 1] ?? '';
      if (flag === '--tmpfs') mounts.push({ dest: value, kind: 'tmpfs', readOnly: false });
      if (flag === '--dev') mounts.push({ dest: value, kind: 'dev', readOnly: false });
      if (flag === '--proc') mounts.push({ dest: value, kind: 'proc', readOnly: false });
      if (flag === '--remount-ro') {
        const target = mounts.findLast((m) => m.dest === value);
        if (target) target.readOnly = true;
      }
      i += 1;
    }
  }
  const top = (p: string) => mounts.findLast((m) => within(p, m.dest));
  return {
    offline,
    access(p) {
      const m = top(p);
      return {
        reads: m?.kind === 'bind' || m?.kind === 'ro-bind',
        writes: m?.kind === 'bind' && !m.readOnly,
        pinned: mounts.some((x) => x.dest === p),
      };
    },
    privateWrites(p) {
      const m = top(p);
      return m?.kind === 'tmpfs' && !m.readOnly;
    },
  };
}

interface Rule {
  action: 'allow' | 'deny';
  operations: string[];
  filters: string[];
}

/** Our profiles' shape: `(allow|deny op… filter…)`, a filter one `(…)` group. */
function parseProfile(profile: string): Rule[] {
  const rules: Rule[] = [];
  let depth = 0;
  let current = '';
  for (const ch of profile) {
    if (ch === '(') depth++;
    if (depth > 0) current += ch;
    if (ch === ')') {
      depth--;
      if (depth === 0) {
        const inner = current.slice(1, -1).trim();
        current = '';
        const head = /^(allow|deny)\s+((?:[a-z*-]+\s*)+)/.exec(inner);
        if (!head) continue;
        const filters: string[] = [];
        let d = 0;
        let f = '';
        for (const c of inner.slice(head[0].length)) {
          if (c === '(') d++;
          if (d > 0) f += c;
          if (c === ')' && --d === 0) {
            filters.push(f);
            f = '';
          }
        }
        rules.push({
          action: head[1] as 'allow' | 'deny',
          operations: (head[2] ?? '').trim().split(/\s+/),
          filters,
        });
      }
    }
  }
  return rules;
}

const unquote = (text: string): string => JSON.parse(text) as string;

function filterMatches(filter: string, p: string): boolean {
  const sub = /^\(subpath (".*")\)$/.exec(filter);
  if (sub?.[1]) return within(p, unquote(sub[1]));
  const lit = /^\(literal (".*")\)$/.exec(filter);
  if (lit?.[1]) return p === unquote(lit[1]);
  const re = /^\(regex #"(.*)"\)$/.exec(filter);
  if (re?.[1]) return new RegExp(re[1]).test(p);
  return false;
}

/** Whether an operation on `p` is allowed: the last rule naming the operation (or its family) and matching `p`. */
function decide(rules: readonly Rule[], operation: string, p: string): boolean {
  let allowed = false;
  for (const rule of rules) {
    const names = rule.operations.some(
      (op) =>
        op === operation || op === 'default' || (op.endsWith('*') && operation.startsWith(op.slice(0, -1))),
    );
    if (!names) continue;
    if (rule.filters.length > 0 && !rule.filters.some((f) => filterMatches(f, p))) continue;
    allowed = rule.action === 'allow';
  }
  return allowed;
}

export interface SeatbeltView {
  access(p: string): Access;
  offline: boolean;
}

export function seatbeltView(profile: string): SeatbeltView {
  const rules = parseProfile(profile);
  return {
    offline: rules.some(
      (r) => r.action === 'deny' && r.operations.includes('network*') && r.filters.length === 0,
    ),
    access: (p) => ({
      reads: decide(rules, 'file-read-data', p),
      writes: decide(rules, 'file-write-data', p),
      pinned: !decide(rules, 'file-write-unlink', p),
    }),
  };
}
