/** Runs the built `ralph` CLI as a user would, in a given directory and environment. */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const RALPH_BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CliResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  onSpawn?: (pid: number) => void;
  /** The built CLI to run (default this checkout's `dist/cli/main.js`). */
  bin?: string;
  /** In a process group of its own (its pid is the group's id), as a CI job's process would be. */
  detached?: boolean;
}

export function runRalph(args: readonly string[], options: CliOptions): Promise<CliResult> {
  return runProgram(process.execPath, [options.bin ?? RALPH_BIN, ...args], options);
}

/** Runs any program the same way (`bin` aside): ralph's installed bin, npm, npx. */
export function runProgram(
  command: string,
  args: readonly string[],
  options: CliOptions,
): Promise<CliResult> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.detached ? { detached: true } : {}),
  });
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  return outcomeOf(child, options.timeoutMs);
}

/** A child's output and exit, killed after `timeoutMs` (default two minutes). */
export function outcomeOf(
  child: ChildProcessByStdio<null, Readable, Readable>,
  timeoutMs = 120_000,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ exitCode, signal, stdout, stderr });
    });
  });
}
