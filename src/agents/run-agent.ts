/**
 * Runs one agent process: its own process group, stdout parsed line by line
 * and copied verbatim to the raw log, stderr tail kept, wall-clock and idle
 * timeouts, abort, and the whole group dead before this returns.
 */
import type { ChildProcess } from 'node:child_process';
import type { AgentEvent } from './agent-event.js';
import { BoundedTail } from './bounded-tail.js';
import { LineSplitter, type SplitLine } from './line-splitter.js';
import { signalGroup, terminateGroup } from './process-group.js';
import { openRawLog } from './raw-log.js';
import type { AgentRunResult, RunAgentOptions, StopReason } from './run-agent-types.js';
import { spawnCommand } from './spawn-command.js';

export type { AgentRunResult, RunAgentOptions };

const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;
const DEFAULT_KILL_GRACE_MS = 3000;
const DEFAULT_STDERR_MAX_CHARS = 64 * 1024;
/** How long stdout may stay open after the agent exited (a background child holding it) before the group is ended. */
const DRAIN_MS = 1000;
const MAX_TIMER_MS = 2_147_483_647;

const settlesWithin = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });

function startTimer(ms: number, onFire: () => void): NodeJS.Timeout | undefined {
  if (!Number.isFinite(ms) || ms <= 0) return undefined;
  return setTimeout(onFire, Math.min(ms, MAX_TIMER_MS));
}

function spawnChild(
  opts: RunAgentOptions,
): Promise<{ child: ChildProcess; pid: number } | { error: string }> {
  const { invocation } = opts;
  let child: ChildProcess;
  try {
    child = spawnCommand(
      {
        file: opts.binaryPath,
        args: invocation.args,
        cwd: opts.cwd,
        env: { ...opts.env, ...invocation.env },
      },
      [invocation.stdin === 'ignore' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      opts.wrap,
    );
  } catch (error) {
    return Promise.resolve({ error: error instanceof Error ? error.message : String(error) });
  }
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ error: `${error.message} (cwd: ${opts.cwd})` }));
    child.once('spawn', () => {
      // Later 'error' events (a failed kill) must not crash the process; the exit tells the story.
      child.on('error', () => undefined);
      if (child.pid === undefined) resolve({ error: 'spawned without a pid' });
      else resolve({ child, pid: child.pid });
    });
  });
}

export async function runAgent(opts: RunAgentOptions): Promise<AgentRunResult> {
  const started = performance.now();
  const stderr = new BoundedTail(opts.stderrMaxChars ?? DEFAULT_STDERR_MAX_CHARS);
  const log = await openRawLog(opts.rawLogPath);
  const finish = (stopReason: StopReason, exitCode: number | null, signal: string | null): AgentRunResult => {
    const result: AgentRunResult = {
      exitCode,
      signal,
      stopReason,
      stderr: stderr.toString(),
      durationMs: Math.round(performance.now() - started),
    };
    const logError = log.error();
    if (logError) result.rawLogError = logError.message;
    return result;
  };

  try {
    if (opts.signal?.aborted) return finish('aborted', null, null);
    const spawned = await spawnChild(opts);
    if ('error' in spawned) {
      stderr.append(spawned.error);
      return finish('spawn-error', null, null);
    }
    const { child, pid } = spawned;
    opts.onSpawn?.(pid);
    const exit = await supervise(opts, child, pid, log.stream, stderr);
    return finish(exit.stopReason, exit.code, exit.signal);
  } finally {
    await log.close();
  }
}

interface Exit {
  stopReason: StopReason;
  code: number | null;
  signal: string | null;
}

async function supervise(
  opts: RunAgentOptions,
  child: ChildProcess,
  pid: number,
  log: NodeJS.WritableStream,
  stderr: BoundedTail,
): Promise<Exit> {
  const maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const graceMs = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const parser = opts.adapter.createParser();
  const splitter = new LineSplitter(maxLineBytes);
  let stopReason: StopReason | undefined;
  let exited = false;
  let killing: Promise<void> | undefined;
  let callbackError: { error: unknown } | undefined;

  const stop = (reason: StopReason) => {
    if (stopReason !== undefined || exited) return;
    stopReason = reason;
    killing = terminateGroup(pid, graceMs);
  };
  const emit = (line: SplitLine) => {
    try {
      const events: AgentEvent[] = line.truncated
        ? [{ type: 'garbage', line: `${line.text}… [line of ${line.bytes} bytes cut at ${maxLineBytes}]` }]
        : parser.parseLine(line.text);
      for (const event of events) opts.onEvent(event);
    } catch (error) {
      // A throwing consumer is a bug: stop the agent and let the caller see the error.
      callbackError ??= { error };
      stop('aborted');
    }
  };

  const wallTimer = startTimer(opts.timeoutMs, () => stop('timeout'));
  const idleTimer = startTimer(opts.idleTimeoutMs, () => stop('idle'));
  const onAbort = () => stop('aborted');
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  const exitPromise = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));

  const { stdout, stderr: errStream, stdin } = child;
  stdout?.on('data', (chunk: Buffer) => {
    idleTimer?.refresh();
    if (!log.write(chunk)) {
      stdout.pause();
      log.once('drain', () => stdout.resume());
    }
    for (const line of splitter.push(chunk)) emit(line);
  });
  stdout?.on('end', () => {
    for (const line of splitter.end()) emit(line);
  });
  errStream?.setEncoding('utf8');
  let errLine = '';
  errStream?.on('data', (text: string) => {
    idleTimer?.refresh();
    stderr.append(text);
    if (!opts.onStderrLine) return;
    const lines = (errLine + text).split('\n');
    errLine = (lines.pop() ?? '').slice(-maxLineBytes);
    for (const line of lines) opts.onStderrLine(line);
  });
  if (typeof opts.invocation.stdin === 'object' && stdin) {
    stdin.on('error', () => undefined); // EPIPE when the agent exits without reading it all
    stdin.end(opts.invocation.stdin.text);
  }

  try {
    const exit = await exitPromise;
    exited = true;
    clearTimeout(wallTimer);
    clearTimeout(idleTimer);
    if (!(await settlesWithin(closed, DRAIN_MS))) {
      killing ??= terminateGroup(pid, graceMs);
      await killing;
      if (!(await settlesWithin(closed, DRAIN_MS))) {
        stdout?.destroy();
        errStream?.destroy();
      }
    }
    if (callbackError) throw callbackError.error;
    return { stopReason: stopReason ?? 'exited', ...exit };
  } finally {
    clearTimeout(wallTimer);
    clearTimeout(idleTimer);
    opts.signal?.removeEventListener('abort', onAbort);
    if (killing) {
      await killing;
      signalGroup(pid, 'SIGKILL');
    } else {
      // Whatever the agent left running in its group (a dev server, a watcher) ends with it.
      await terminateGroup(pid, graceMs);
    }
  }
}
