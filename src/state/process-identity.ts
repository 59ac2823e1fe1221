/**
 * What tells one process from another that later got the same pid: when it
 * started, and what it runs. A lock records its holder's start time; a pid
 * that is alive but started at another time is not the holder.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ProcessIdentity {
  /** An opaque start time, comparable only with another from this machine. */
  start?: string;
  commandLine?: string;
}

/** The identity of a running process; null when it cannot be read (gone, or not ours to see). */
export function processIdentity(pid: number): ProcessIdentity | null {
  return process.platform === 'linux' ? fromProc(pid) : fromPs(pid);
}

function fromProc(pid: number): ProcessIdentity | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after the command name (which may hold spaces and parentheses) start at field 3; starttime is field 22.
  const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  const identity: ProcessIdentity = {};
  if (ticks !== undefined) identity.start = `${bootId()}:${ticks}`;
  try {
    identity.commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    // Exited meanwhile: the start time is enough.
  }
  return identity;
}

/** Start times count clock ticks since boot: the boot they count from is part of them. */
function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return 'boot';
  }
}

function fromPs(pid: number): ProcessIdentity | null {
  const column = (name: string): string | undefined => {
    try {
      const out = execFileSync('ps', ['-o', `${name}=`, '-p', String(pid)], { encoding: 'utf8' }).trim();
      return out === '' ? undefined : out;
    } catch {
      return undefined;
    }
  };
  const start = column('lstart');
  if (start === undefined) return null;
  const commandLine = column('command');
  return { start, ...(commandLine !== undefined ? { commandLine } : {}) };
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
