import type { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { signalGroup, terminateGroup } from '../agents/process-group.js';
import { type CommandWrapper, spawnCommand } from '../agents/spawn-command.js';

export interface CommandHookOptions {
  /** From the user's own config: a shell command line by design, like a gate check. */
  command: string;
  cwd: string;
  /** The complete environment, hook variables included. */
  env: NodeJS.ProcessEnv;
  /** stdout and stderr go here, appended. */
  outputFile: string;
  timeoutMs: number;
  /** Aborted when the run ends and the hook may not finish. */
  signal: AbortSignal;
  killGraceMs?: number;
  /** Rewrites the command before it starts (a sandbox). */
  wrap?: CommandWrapper;
}

export interface HookExit {
  exitCode: number | null;
  /** Set when it did not simply exit: spawn error, timeout, killed at the end of the run. */
  error?: string;
}

/**
 * Runs a `run:` hook with `sh -c` in its own process group, output straight
 * to its file. A timeout or an abort ends the whole group; whatever it left
 * running in the group is ended when it exits.
 */
export async function runCommandHook(opts: CommandHookOptions): Promise<HookExit> {
  if (opts.signal.aborted) return { exitCode: null, error: 'not started: the run was ending' };
  mkdirSync(dirname(opts.outputFile), { recursive: true });
  const fd = openSync(opts.outputFile, 'a');
  let child: ReturnType<typeof spawn>;
  try {
    child = spawnCommand(
      { file: 'sh', args: ['-c', opts.command], cwd: opts.cwd, env: opts.env },
      ['ignore', fd, fd],
      opts.wrap,
    );
  } catch (error) {
    return { exitCode: null, error: `could not start: ${message(error)}` };
  } finally {
    closeSync(fd);
  }

  return new Promise<HookExit>((resolve) => {
    let stopped: string | undefined;
    let killing: Promise<void> | undefined;
    const stop = (why: string) => {
      if (stopped !== undefined || child.pid === undefined) return;
      stopped = why;
      killing = terminateGroup(child.pid, opts.killGraceMs ?? 2_000);
    };
    const timer =
      Number.isFinite(opts.timeoutMs) && opts.timeoutMs > 0
        ? setTimeout(
            () => stop(`killed after the ${Math.round(opts.timeoutMs / 1000)} s time limit`),
            Math.min(opts.timeoutMs, 2_147_483_647),
          )
        : undefined;
    const onAbort = () => stop('killed: still running when the run ended');
    opts.signal.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const finish = async (exit: HookExit) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      await killing;
      if (child.pid !== undefined) killLeftovers(child.pid);
      resolve(exit);
    };
    child.once(
      'error',
      (error) => void finish({ exitCode: null, error: `could not start: ${error.message}` }),
    );
    child.once('close', (code, signal) => {
      const exitCode = code ?? null;
      if (stopped !== undefined) void finish({ exitCode, error: stopped });
      else if (exitCode === null) void finish({ exitCode, error: `ended by ${signal ?? 'a signal'}` });
      else void finish({ exitCode });
    });
  });
}

/** Whatever the hook left running in its group ends with it. */
function killLeftovers(pid: number): void {
  try {
    signalGroup(pid, 'SIGKILL');
  } catch {
    // Not ours to signal any more.
  }
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
