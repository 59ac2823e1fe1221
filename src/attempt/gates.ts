import { type CommandWrapper, spawnCommand } from '../agents/spawn-command.js';

export interface CheckResult {
  command: string;
  exitCode: number;
  durationMs: number;
  /** The last lines of combined stdout/stderr, fed back to the agent on failure. */
  outputTail: string;
}

const TAIL_CHARS = 4_000;

/**
 * Runs one gate command from the user's own config. It is a shell command
 * line by design (like an npm script); nothing from a task file is ever
 * interpolated into it.
 */
export function runCheck(
  command: string,
  cwd: string,
  timeoutMs: number,
  signal?: AbortSignal,
  env?: NodeJS.ProcessEnv,
  wrap?: CommandWrapper,
): Promise<CheckResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawnCommand(
      { file: 'sh', args: ['-c', command], cwd, env: env ?? process.env },
      ['ignore', 'pipe', 'pipe'],
      wrap,
    );
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-TAIL_CHARS * 2);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const killGroup = () => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    };
    const timer = setTimeout(() => {
      tail += `\n[ralph: check killed after ${Math.round(timeoutMs / 1000)} s]`;
      killGroup();
    }, timeoutMs);
    signal?.addEventListener('abort', killGroup, { once: true });
    let finished = false;
    const finish = (exitCode: number) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', killGroup);
      // Reap anything the check left running in its group (servers, watchers).
      killGroup();
      resolve({ command, exitCode, durationMs: Date.now() - started, outputTail: tail.slice(-TAIL_CHARS) });
    };
    child.on('error', (error) => {
      tail += `\n${error.message}`;
      finish(127);
    });
    child.on('close', (code, sig) => finish(code ?? (sig ? 128 + 9 : 1)));
  });
}

/** Runs the gates in order, stopping at the first failure. */
export async function runChecks(
  commands: readonly string[],
  cwd: string,
  timeoutMs: number,
  hooks: {
    onStart?: (command: string) => void;
    onFinish?: (result: CheckResult) => void;
    signal?: AbortSignal;
    /** The checks' environment (default: ralph's own). */
    env?: NodeJS.ProcessEnv;
    /** Rewrites each check's command before it starts (a sandbox). */
    wrap?: CommandWrapper;
  } = {},
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const command of commands) {
    hooks.onStart?.(command);
    const result = await runCheck(command, cwd, timeoutMs, hooks.signal, hooks.env, hooks.wrap);
    hooks.onFinish?.(result);
    results.push(result);
    if (result.exitCode !== 0) break;
  }
  return results;
}
