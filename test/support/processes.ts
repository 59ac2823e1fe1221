import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { isProcessAlive } from './process-alive.js';

/** Live (non-zombie) processes whose command line contains `needle`. */
export function processesMatching(needle: string): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      continue;
    }
    if (cmdline.includes(needle) && isProcessAlive(pid)) found.push({ pid, cmdline });
  }
  return found;
}

/** Live (non-zombie) processes whose working directory is `dir` or below it. */
export function processesIn(dir: string): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if ((cwd === dir || cwd.startsWith(`${dir}/`)) && isProcessAlive(pid)) {
        found.push({
          pid,
          cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim(),
        });
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}
