/**
 * The processes an agent started. Killing the agent's process group is not
 * enough: agent CLIs run tool commands in sessions of their own (Claude
 * Code's Bash tool does), which would outlive the group as orphans.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** pid → parent pid for every visible process. */
function parentMap(): Map<number, number> {
  const parents = new Map<number, number>();
  if (process.platform === 'linux') {
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // Fields after the command name (which may contain spaces and parentheses).
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        parents.set(pid, Number(fields[1]));
      } catch {
        // Exited while we looked.
      }
    }
    return parents;
  }
  try {
    const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
    for (const line of out.split('\n')) {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number);
      if (pid !== undefined && ppid !== undefined && Number.isInteger(pid)) parents.set(pid, ppid);
    }
  } catch {
    // No ps: the process group is all we can reach.
  }
  return parents;
}

/** Every descendant of `pid` (children, grandchildren, …), whatever group or session they are in. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const [child, parent] of parentMap()) {
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Whether the process exists and is not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return false;
  }
}
