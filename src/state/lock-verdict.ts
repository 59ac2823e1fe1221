import { z } from 'zod';

export const LockInfoSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  startedAt: z.string(),
  command: z.string(),
});
export type LockInfo = z.infer<typeof LockInfoSchema>;

export type LockVerdict =
  | { kind: 'held'; info: LockInfo; reason: 'running' | 'other-host' }
  /** Unparseable content young enough that its writer may still be writing it. */
  | { kind: 'held'; info: null; reason: 'being-written' }
  | { kind: 'stale'; info: LockInfo; reason: 'not-running' }
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
  return { kind: 'held', info, reason: 'running' };
}

/** Whether a process with this pid exists on this machine. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return !(error instanceof Error && 'code' in error && error.code === 'ESRCH');
  }
}
