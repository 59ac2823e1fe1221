/**
 * Per-iteration hooks (seed 004): after each iteration, every enabled hook
 * runs once, either a shell command (`run:`) or a fresh agent session
 * (`prompt:`). Sequential hooks finish before the next iteration starts;
 * parallel ones run in the background. A hook never stops the loop: its
 * failure is recorded and reported as an event.
 */
import path from 'node:path';
import type { Hook } from '../state/config-schema.js';
import { appendEvent } from '../state/event-log.js';
import type { AgentSetup } from './context.js';
import { type HookExit, runCommandHook } from './hooks-command.js';
import { runPromptHook } from './hooks-prompt.js';
import type { HookEvent, HookTaskRecord, HookVars } from './hooks-types.js';
import { hookFileStem, hookVariables, substituteHookVariables } from './hooks-vars.js';

export type { HookEvent, HookTaskRecord, HookVars } from './hooks-types.js';

export interface HookRunnerOptions {
  /** The configured hooks; disabled ones never run. */
  hooks: readonly Hook[];
  /** Where hooks run: the work tree the agent works in. */
  cwd: string;
  /** `.ralph/runs/<name>/`: hook output goes to `hooks/`, records to `hooks/tasks.jsonl`. */
  runDir: string;
  /** The run's agent, for `prompt:` hooks. Without one they fail, recorded and reported. */
  agent?: AgentSetup;
  emit: (event: HookEvent) => void;
  /** Called with each record when a task starts and again when it ends. */
  onRecord?: (record: HookTaskRecord) => void;
  /** The environment of `run:` hooks, before the hook variables; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Wall-clock limit of one hook task. Default 30 minutes. */
  timeoutMs?: number;
  /** For `prompt:` hooks: kill an agent silent this long. Default 5 minutes. */
  idleTimeoutMs?: number;
  now?: () => Date;
}

export interface HookRunner {
  /** True when at least one hook is enabled. */
  readonly active: boolean;
  /**
   * Runs the hooks for one finished iteration, in config order: a sequential
   * hook is awaited, a parallel one is started and left running. Resolves
   * once the sequential ones are done. Never rejects.
   */
  afterIteration(vars: HookVars): Promise<void>;
  /**
   * Waits for the parallel hooks still running, at most `timeoutMs` (less if
   * `signal` aborts: an impatient second Ctrl-C), then kills them with their
   * process groups. No hook starts after a drain.
   */
  drain(timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Every task of this runner so far, oldest first. */
  records(): HookTaskRecord[];
}

const DEFAULT_TIMEOUT_MS = 30 * 60_000;
const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60_000;

export const hookTasksFile = (runDir: string): string => path.join(runDir, 'hooks', 'tasks.jsonl');

export function createHookRunner(options: HookRunnerOptions): HookRunner {
  const hooks = options.hooks.filter((h) => h.enabled);
  const now = options.now ?? (() => new Date());
  const records: HookTaskRecord[] = [];
  const running = new Set<Promise<void>>();
  const ending = new AbortController();

  // Record lines are written one after another, so the file keeps their order; drain waits for them.
  let writes: Promise<void> = Promise.resolve();
  const save = (record: HookTaskRecord) => {
    options.onRecord?.(record);
    // The record file is a convenience; failing to write it must not stop a hook or the loop.
    writes = writes.then(() => appendEvent(hookTasksFile(options.runDir), record)).catch(() => undefined);
  };

  const runTask = async (hook: Hook, vars: HookVars): Promise<void> => {
    const kind = hook.prompt !== undefined ? 'prompt' : 'run';
    const outputFile = path.join(
      options.runDir,
      'hooks',
      `${hookFileStem(vars.iteration, hook.id)}.${kind === 'prompt' ? 'jsonl' : 'log'}`,
    );
    const started = performance.now();
    let record: HookTaskRecord = {
      iteration: vars.iteration,
      hookId: hook.id,
      kind,
      parallel: hook.parallel,
      status: 'running',
      spawnedAt: now().toISOString(),
      outputFile,
    };
    const index = records.push(record) - 1;
    save(record);
    options.emit({
      type: 'hook-started',
      iteration: vars.iteration,
      hookId: hook.id,
      kind,
      parallel: hook.parallel,
      outputFile,
    });
    let exit: HookExit;
    try {
      exit = await execute(hook, vars, outputFile);
    } catch (error) {
      exit = { exitCode: null, error: error instanceof Error ? error.message : String(error) };
    }
    const ok = exit.exitCode === 0 && exit.error === undefined;
    const error = exit.error ?? (ok ? undefined : `exit code ${exit.exitCode}`);
    record = {
      ...record,
      status: ok ? 'completed' : 'failed',
      completedAt: now().toISOString(),
      ...(exit.exitCode !== null ? { exitCode: exit.exitCode } : {}),
      ...(error !== undefined ? { error } : {}),
    };
    records[index] = record;
    save(record);
    options.emit({
      type: 'hook-finished',
      iteration: vars.iteration,
      hookId: hook.id,
      kind,
      parallel: hook.parallel,
      status: record.status === 'completed' ? 'completed' : 'failed',
      exitCode: exit.exitCode,
      durationMs: Math.round(performance.now() - started),
      outputFile,
      ...(error !== undefined ? { error } : {}),
    });
  };

  const execute = (hook: Hook, vars: HookVars, outputFile: string): Promise<HookExit> => {
    const variables = hookVariables(vars);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (hook.run !== undefined) {
      return runCommandHook({
        command: hook.run,
        cwd: options.cwd,
        env: { ...(options.env ?? process.env), ...variables },
        outputFile,
        timeoutMs,
        signal: ending.signal,
      });
    }
    if (options.agent === undefined) {
      return Promise.resolve({
        exitCode: null,
        error: 'a prompt hook needs an agent, and none is configured',
      });
    }
    return runPromptHook({
      prompt: substituteHookVariables(hook.prompt ?? '', variables),
      agent: options.agent,
      cwd: options.cwd,
      outputFile,
      timeoutMs,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      signal: ending.signal,
    });
  };

  return {
    active: hooks.length > 0,
    async afterIteration(vars) {
      for (const hook of hooks) {
        if (ending.signal.aborted) return;
        // A throwing listener is a bug, but must not become an unhandled rejection that ends the run.
        const task = runTask(hook, vars).catch(() => undefined);
        if (!hook.parallel) {
          await task;
          continue;
        }
        running.add(task);
        void task.finally(() => running.delete(task));
      }
    },
    async drain(timeoutMs, signal) {
      const all = Promise.all([...running]);
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const expired = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, timeoutMs));
        onAbort = resolve;
        if (signal?.aborted) resolve();
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
      const finished = await Promise.race([all.then(() => true), expired.then(() => false)]);
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      ending.abort();
      if (!finished) await all;
      await writes;
    },
    records: () => records.map((r) => ({ ...r })),
  };
}
