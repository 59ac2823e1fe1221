import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ExitCode, RalphError } from '../core/errors.js';
import { errorCode, isMissing } from './fs-util.js';
import { judgeLock, type LockInfo, type LockVerdict, parseLockInfo } from './lock-verdict.js';
import { isProcessAlive, processIdentity } from './process-identity.js';

export type { LockInfo, LockVerdict } from './lock-verdict.js';

export interface AcquireLockOptions {
  /** Take over a lock whose process is gone or whose content is garbage (default true). */
  takeoverStale?: boolean;
  /** Take over any lock, even one that looks live or belongs to another host. */
  force?: boolean;
  /** What the holder is doing, for the message another run shows (e.g. `ralph run main`). */
  command?: string;
  /** How old unreadable lock content must be before it counts as stale (default 5 s). */
  graceMs?: number;
  /** The sandbox the holder runs its agents in, for `ralph status`. */
  sandbox?: string;
}

export interface LockTakeover {
  previous: LockInfo | null;
  reason: 'not-running' | 'pid-reused' | 'unreadable' | 'forced';
}

export interface LockHandle {
  readonly path: string;
  readonly info: LockInfo;
  /** Set when an earlier lock was removed to get this one; worth telling the user. */
  readonly tookOver: LockTakeover | null;
  /** Removes the lock if it still names this process; safe to call twice. */
  release(): Promise<void>;
}

const DEFAULT_GRACE_MS = 5_000;
/** Locks this process holds, so a second acquire from the same process is refused, not a takeover. */
const heldHere = new Set<string>();
const MAX_ATTEMPTS = 5;

export async function acquireLock(lockPath: string, options: AcquireLockOptions = {}): Promise<LockHandle> {
  const { takeoverStale = true, force = false, command = defaultCommand() } = options;
  const processStart = processIdentity(process.pid)?.start;
  const info: LockInfo = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date().toISOString(),
    command,
    ...(processStart !== undefined ? { processStart } : {}),
    ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
  };
  await fs.mkdir(path.dirname(lockPath), { recursive: true });
  let tookOver: LockTakeover | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (await tryCreate(lockPath, info)) return handle(lockPath, info, tookOver);
    const existing = await readLockFile(lockPath);
    if (existing === null) continue;
    const verdict = judge(lockPath, existing, options.graceMs);
    const allowed = verdict.kind === 'stale' ? takeoverStale || force : force;
    if (!allowed) throw lockedError(lockPath, verdict);
    // Only remove what we judged: another process may have replaced it meanwhile.
    const again = await readLockFile(lockPath);
    if (again !== null && again.content === existing.content) await fs.rm(lockPath, { force: true });
    tookOver = { previous: verdict.info, reason: verdict.kind === 'stale' ? verdict.reason : 'forced' };
  }
  throw new RalphError(
    `Could not acquire the lock ${lockPath}: other processes keep taking it.`,
    'locked',
    ExitCode.Locked,
  );
}

function defaultCommand(): string {
  const [, script, ...args] = process.argv;
  return [script === undefined ? 'ralph' : path.basename(script), ...args].join(' ');
}

/**
 * Runs `work` holding `lock`, then releases it. When the work failed, that
 * failure is what the caller hears: a lock that cannot be removed as well
 * (the disk that broke the work refuses this too) must not take its place.
 * Such a lock names a process that is gone, so the next run takes it over.
 */
export async function whileHolding<T>(lock: LockHandle, work: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await lock.release().catch(() => undefined);
    throw error;
  }
  await lock.release();
  return result;
}

export type LockStatus = { kind: 'free' } | LockVerdict;

/** What `ralph status` needs: is a run holding this lock, and who. */
export async function inspectLock(lockPath: string, graceMs?: number): Promise<LockStatus> {
  const existing = await readLockFile(lockPath);
  return existing === null ? { kind: 'free' } : judge(lockPath, existing, graceMs);
}

interface LockFile {
  content: string;
  mtimeMs: number;
}

function judge(lockPath: string, file: LockFile, graceMs = DEFAULT_GRACE_MS): LockVerdict {
  return judgeLock(file.content, {
    heldHere: heldHere.has(path.resolve(lockPath)),
    host: os.hostname(),
    pid: process.pid,
    ageMs: Date.now() - file.mtimeMs,
    graceMs,
    isAlive: isProcessAlive,
    identify: processIdentity,
  });
}

async function tryCreate(lockPath: string, info: LockInfo): Promise<boolean> {
  let file: fs.FileHandle;
  try {
    file = await fs.open(lockPath, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    await file.writeFile(`${JSON.stringify(info)}\n`, 'utf8');
    await file.sync();
  } catch (error) {
    await file.close();
    await fs.rm(lockPath, { force: true });
    throw error;
  }
  await file.close();
  return true;
}

async function readLockFile(lockPath: string): Promise<LockFile | null> {
  try {
    const [content, stats] = await Promise.all([fs.readFile(lockPath, 'utf8'), fs.stat(lockPath)]);
    return { content, mtimeMs: stats.mtimeMs };
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function handle(lockPath: string, info: LockInfo, tookOver: LockTakeover | null): LockHandle {
  let released = false;
  heldHere.add(path.resolve(lockPath));
  return {
    path: lockPath,
    info,
    tookOver,
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(path.resolve(lockPath));
      const current = await readLockFile(lockPath);
      const holder = current === null ? null : parseLockInfo(current.content);
      if (
        holder &&
        holder.pid === info.pid &&
        holder.host === info.host &&
        holder.startedAt === info.startedAt
      ) {
        await fs.rm(lockPath, { force: true });
      }
    },
  };
}

function lockedError(lockPath: string, verdict: LockVerdict): RalphError {
  const holder = (i: LockInfo) =>
    `pid ${i.pid} on ${i.host}, started ${i.startedAt}${i.command ? ` (${i.command})` : ''}`;
  switch (verdict.reason) {
    case 'running':
      return locked(`Another ralph run is active: ${holder(verdict.info)}.`, [
        `Lock file: ${lockPath}`,
        'Wait for it to finish or stop it first; if you are sure it is not a ralph run, run again with --force.',
      ]);
    case 'other-host':
      return locked(
        `The run is locked by ${holder(verdict.info)}; its state cannot be checked from this host.`,
        [`Lock file: ${lockPath}`, 'If that run is gone, run again with --force or delete the lock file.'],
      );
    case 'being-written':
      return locked(`Another process is creating the lock ${lockPath}.`, ['Try again in a few seconds.']);
    case 'not-running':
    case 'pid-reused':
      return locked(`A stale lock from ${holder(verdict.info)} is in the way.`, [
        `Lock file: ${lockPath}`,
        'That run is gone; delete the lock file or run again with --force.',
      ]);
    case 'unreadable':
      return locked(`The lock ${lockPath} is unreadable.`, [
        'Delete the lock file or run again with --force.',
      ]);
  }
}

const locked = (message: string, details: string[]): RalphError =>
  new RalphError(message, 'locked', ExitCode.Locked, details);
