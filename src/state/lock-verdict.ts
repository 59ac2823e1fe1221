import { z } from 'zod';
import type { ProcessIdentity } from './process-identity.js';

export const LockInfoSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  startedAt: z.string(),
  command: z.string(),
  /** The holder's start time (see `processIdentity`), so a pid reused by another program is told apart. */
  processStart: z.string().optional(),
  /** The sandbox the holder runs its agents in (`bwrap`, `sandbox-exec`), when it does. */
  sandbox: z.string().optional(),
});
export type LockInfo = z.infer<typeof LockInfoSchema>;

export type LockVerdict =
  | { kind: 'held'; info: LockInfo; reason: 'running' | 'other-host' }
  /** Unparseable content young enough that its writer may still be writing it. */
  | { kind: 'held'; info: null; reason: 'being-written' }
  /** `pid-reused`: the pid is alive, but it is another program that got the holder's pid. */
  | { kind: 'stale'; info: LockInfo; reason: 'not-running' | 'pid-reused' }
  | { kind: 'stale'; info: null; reason: 'unreadable' };

export interface LockContext {
  host: string;
  pid: number;
  /** How long ago the lock file was last modified. */
  ageMs: number;
  /** Below this age, garbage content is presumed to be mid-write. */
  graceMs: number;
  isAlive: (pid: number) => boolean;
  /** Whether this process itself currently holds the lock. */
  heldHere: boolean;
  /** The start time and command line of a live pid, when they can be read. */
  identify?: (pid: number) => ProcessIdentity | null;
}

export function parseLockInfo(content: string): LockInfo | null {
  try {
    const parsed = LockInfoSchema.safeParse(JSON.parse(content));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Decides whether an existing lock still belongs to a live run. */
export function judgeLock(content: string, ctx: LockContext): LockVerdict {
  const info = parseLockInfo(content);
  if (info === null) {
    return ctx.ageMs < ctx.graceMs
      ? { kind: 'held', info: null, reason: 'being-written' }
      : { kind: 'stale', info: null, reason: 'unreadable' };
  }
  if (info.host !== ctx.host) return { kind: 'held', info, reason: 'other-host' };
  if (info.pid === ctx.pid) {
    // Our own pid in a lock we do not hold means an earlier process with the
    // same pid (common in containers) died without releasing it.
    return ctx.heldHere
      ? { kind: 'held', info, reason: 'running' }
      : { kind: 'stale', info, reason: 'not-running' };
  }
  if (!ctx.isAlive(info.pid)) return { kind: 'stale', info, reason: 'not-running' };
  const live = ctx.identify?.(info.pid);
  if (live && !isHolder(info, live)) return { kind: 'stale', info, reason: 'pid-reused' };
  return { kind: 'held', info, reason: 'running' };
}

/**
 * Whether the live process with the lock's pid is the one that took it: the
 * same start time; for a lock without one (an older ralph), a command line
 * that mentions ralph. Unknown either way, it is presumed to be.
 */
function isHolder(info: LockInfo, live: ProcessIdentity): boolean {
  if (info.processStart !== undefined && live.start !== undefined) return info.processStart === live.start;
  if (live.commandLine !== undefined) return /ralph/i.test(live.commandLine);
  return true;
}
