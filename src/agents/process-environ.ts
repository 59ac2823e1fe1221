/**
 * Finding processes by a variable in their environment. An agent ralph
 * starts carries `RALPH_ATTEMPT=<token>`, and so does everything it starts
 * (tool commands in sessions of their own included): a run resumed after a
 * kill -9 finds them all by the token it recorded before the spawn, even
 * when the agent's pid never reached the state.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** The variable that marks every process of one attempt. */
export const ATTEMPT_ENV = 'RALPH_ATTEMPT';

/**
 * Pids of the visible processes (other than this one) whose environment has
 * `name=value`: read from /proc on Linux, from `ps` elsewhere.
 */
export function processesWithEnv(
  name: string,
  value: string,
  source: 'proc' | 'ps' = process.platform === 'linux' ? 'proc' : 'ps',
): number[] {
  const entry = `${name}=${value}`;
  const found = source === 'proc' ? fromProc(entry) : fromPs(entry);
  return found.filter((pid) => pid !== process.pid);
}

function fromProc(entry: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(entry)) found.push(pid);
    } catch {
      // Exited while we looked, or not ours to read (then it is not an agent we started either).
    }
  }
  return found;
}

/** Elsewhere `ps` prints each process's environment after its command line (BSD `e`, macOS `-E`). */
function fromPs(entry: string): number[] {
  const args =
    process.platform === 'darwin'
      ? ['-A', '-E', '-ww', '-o', 'pid=,command=']
      : ['-A', '-ww', '-o', 'pid=,command=', 'e'];
  let out: string;
  try {
    out = execFileSync('ps', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const line of out.split('\n')) {
    const match = /^\s*(\d+)\s(.*)$/.exec(line);
    if (match?.[1] && ` ${match[2]} `.includes(` ${entry} `)) found.push(Number(match[1]));
  }
  return found;
}
