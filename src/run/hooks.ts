/**
 * Per-iteration hooks (seed 004): after each iteration, every enabled hook
 * runs once: a shell command (`run:`), or a fresh agent session with a
 * prompt (`prompt:`, or `workflow:` naming `.ralph/workflows/<name>.md`).
 * Sequential hooks run first and finish before the next iteration; parallel
 * ones run in the background, each in a checkout of its own. What a hook
 * writes is kept and never lands inside an attempt (see hook-checkout.ts).
 * A hook never stops the loop: its failure is recorded and reported.
 */
import path from 'node:path';
import type { AgentSetup } from '../agents/adapter.js';
import type { CommandWrapper } from '../agents/spawn-command.js';
import { rescueStamp } from '../attempt/rollback.js';
import type { HookEvent } from '../events/run-event.js';
import { headSha } from '../git/index.js';
import type { Hook } from '../state/config-schema.js';
import { appendEvent } from '../state/event-log.js';
import {
  commitHookChanges,
  HOOK_REF_PREFIX,
  type HookCheckout,
  hookCheckoutsDir,
  hookCommitMessage,
  landHookCheckout,
  openHookCheckout,
} from './hook-checkout.js';
import { type HookExit, runCommandHook } from './hooks-command.js';
import { runPromptHook } from './hooks-prompt.js';
import type { HookTaskRecord, HookVars } from './hooks-types.js';
import { hookFileStem, hookVariables, substituteHookVariables } from './hooks-vars.js';
import { readWorkflowPrompt } from './workflows.js';

export type { HookEvent } from '../events/run-event.js';
export type { HookTaskRecord, HookVars } from './hooks-types.js';

export interface HookRunnerOptions {
  /** The configured hooks; disabled ones never run. */
  hooks: readonly Hook[];
  /** The loop's checkout: sequential hooks run here, and every hook's changes land here. */
  cwd: string;
  /** `.ralph/runs/<name>/`: hook output goes to `hooks/`, records to `hooks/tasks.jsonl`. */
  runDir: string;
  /** Where `workflow:` prompts are; default `.ralph/workflows/` beside the runs folder. */
  workflowsDir?: string;
  /** The run's agent, for `prompt:` hooks. Without one they fail, recorded and reported. */
  agent?: AgentSetup;
  emit: (event: HookEvent) => void;
  /** Called with each record when a task starts, again when it ends, and when its changes land. */
  onRecord?: (record: HookTaskRecord) => void;
  /** The environment of `run:` hooks, before the hook variables; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Wall-clock limit of one hook task. Default 30 minutes. */
  timeoutMs?: number;
  /** For `prompt:` hooks: kill an agent silent this long. Default 5 minutes. */
  idleTimeoutMs?: number;
  /** Rewrites each hook's command (and a prompt hook's agent) before it starts: a sandbox. */
  wrap?: CommandWrapper;
  now?: () => Date;
}

export interface HookRunner {
  /** True when at least one hook is enabled. */
  readonly active: boolean;
  /**
   * Runs the hooks for one finished iteration: the sequential ones in config
   * order, each awaited and its changes committed, then the parallel ones
   * started in checkouts of their own. Resolves once the sequential ones
   * are done. Never rejects.
   */
  afterIteration(vars: HookVars): Promise<void>;
  /**
   * Between two iterations (the loop's checkout clean, no attempt running):
   * brings what finished parallel hooks wrote onto the branch, then starts
   * the parallel hooks that waited for an earlier run of the same hook.
   */
  betweenIterations(): Promise<void>;
  /**
   * Waits for the parallel hooks still running or waiting, at most
   * `timeoutMs` (less if `signal` aborts: an impatient second Ctrl-C), then
   * kills the ones left with their process groups; what they wrote lands
   * all the same. No hook starts after a drain.
   */
  drain(timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Every task of this runner so far, oldest first. */
  records(): HookTaskRecord[];
}

interface ParallelTask {
  hook: Hook;
  vars: HookVars;
  checkout?: HookCheckout;
  index?: number;
  done?: Promise<void>;
  finished: boolean;
}

const DEFAULT_TIMEOUT_MS = 30 * 60_000;
const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60_000;

export const hookTasksFile = (runDir: string): string => path.join(runDir, 'hooks', 'tasks.jsonl');

export function createHookRunner(options: HookRunnerOptions): HookRunner {
  const enabled = options.hooks.filter((h) => h.enabled);
  const sequential = enabled.filter((h) => !h.parallel);
  const parallel = enabled.filter((h) => h.parallel);
  const now = options.now ?? (() => new Date());
  const { cwd } = options;
  const records: HookTaskRecord[] = [];
  // Parallel tasks not started yet: one run of a hook waits until the previous one has landed,
  // so it starts from a checkout that holds what that one wrote.
  const waiting: ParallelTask[] = [];
  const started: ParallelTask[] = [];
  const ending = new AbortController();

  // Record lines are written one after another, so the file keeps their order; drain waits for them.
  let writes: Promise<void> = Promise.resolve();
  const save = (index: number, change: Partial<HookTaskRecord> = {}) => {
    const record = { ...(records[index] as HookTaskRecord), ...change };
    records[index] = record;
    options.onRecord?.(record);
    // The record file is a convenience; failing to write it must not stop a hook or the loop.
    writes = writes.then(() => appendEvent(hookTasksFile(options.runDir), record)).catch(() => undefined);
  };

  /** Runs one task in `where` (or records it as not run, with `skip` as the reason); resolves with its record's index. */
  const runTask = async (hook: Hook, vars: HookVars, where: string, skip?: string): Promise<number> => {
    const kind: HookTaskRecord['kind'] = hook.run !== undefined ? 'run' : 'prompt';
    const outputFile = path.join(
      options.runDir,
      'hooks',
      `${hookFileStem(vars.iteration, hook.id)}.${kind === 'prompt' ? 'jsonl' : 'log'}`,
    );
    const started = performance.now();
    const index =
      records.push({
        iteration: vars.iteration,
        hookId: hook.id,
        kind,
        parallel: hook.parallel,
        status: 'running',
        spawnedAt: now().toISOString(),
        outputFile,
      }) - 1;
    save(index);
    const base = { iteration: vars.iteration, hookId: hook.id, kind, parallel: hook.parallel, outputFile };
    options.emit({ type: 'hook-started', ...base });
    let exit: HookExit;
    try {
      const why = skip ?? (ending.signal.aborted ? 'not started: the run was ending' : undefined);
      exit =
        why !== undefined ? { exitCode: null, error: why } : await execute(hook, vars, outputFile, where);
    } catch (error) {
      exit = { exitCode: null, error: error instanceof Error ? error.message : String(error) };
    }
    const ok = exit.exitCode === 0 && exit.error === undefined;
    const error = exit.error ?? (ok ? undefined : `exit code ${exit.exitCode}`);
    save(index, {
      status: ok ? 'completed' : 'failed',
      completedAt: now().toISOString(),
      ...(exit.exitCode !== null ? { exitCode: exit.exitCode } : {}),
      ...(error !== undefined ? { error } : {}),
    });
    options.emit({
      type: 'hook-finished',
      ...base,
      status: ok ? 'completed' : 'failed',
      exitCode: exit.exitCode,
      durationMs: Math.round(performance.now() - started),
      ...(error !== undefined ? { error } : {}),
    });
    return index;
  };

  const execute = async (
    hook: Hook,
    vars: HookVars,
    outputFile: string,
    where: string,
  ): Promise<HookExit> => {
    const variables = hookVariables(vars);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (hook.run !== undefined) {
      return runCommandHook({
        command: hook.run,
        cwd: where,
        env: { ...(options.env ?? process.env), ...variables },
        outputFile,
        timeoutMs,
        signal: ending.signal,
        ...(options.wrap ? { wrap: options.wrap } : {}),
      });
    }
    const text =
      hook.workflow !== undefined
        ? await readWorkflowPrompt(options.workflowsDir ?? defaultWorkflowsDir(options.runDir), hook.workflow)
        : (hook.prompt ?? '');
    if (options.agent === undefined) {
      return { exitCode: null, error: 'a prompt hook needs an agent, and none is configured' };
    }
    return runPromptHook({
      prompt: substituteHookVariables(text, variables),
      agent: options.agent,
      cwd: where,
      outputFile,
      timeoutMs,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      signal: ending.signal,
      ...(options.wrap ? { wrap: options.wrap } : {}),
    });
  };

  /** Reports where what a hook wrote went, on its record and as an event. */
  const settle = (task: { hook: Hook; vars: HookVars }, index: number, outcome: Settled) => {
    const base = { iteration: task.vars.iteration, hookId: task.hook.id, parallel: task.hook.parallel };
    if (outcome.kind === 'landed') {
      if (outcome.commits.length === 0) return;
      save(index, { commits: outcome.commits.map((c) => c.sha) });
      options.emit({ type: 'hook-committed', ...base, commits: outcome.commits });
      return;
    }
    if (outcome.ref !== undefined) save(index, { keptAt: outcome.ref });
    options.emit({
      type: 'hook-not-landed',
      ...base,
      reason: outcome.reason,
      ...(outcome.ref !== undefined ? { ref: outcome.ref } : {}),
    });
  };

  const runSequential = async (hook: Hook, vars: HookVars) => {
    const before = await headSha(cwd);
    const index = await runTask(hook, vars, cwd);
    if (before === null) return;
    const outcome: Settled = await commitHookChanges(cwd, before, hookCommitMessage(hook.id, vars.iteration))
      .then((commits) => ({ kind: 'landed' as const, commits }))
      .catch((error: unknown) => ({ kind: 'kept' as const, reason: `not committed: ${message(error)}` }));
    settle({ hook, vars }, index, outcome);
  };

  const start = async (task: ParallelTask) => {
    started.push(task);
    const stem = hookFileStem(task.vars.iteration, task.hook.id);
    try {
      if (!ending.signal.aborted) {
        task.checkout = await openHookCheckout(cwd, path.join(hookCheckoutsDir(options.runDir), stem));
      }
    } catch (error) {
      // Without a checkout of its own it cannot run beside an attempt: recorded as failed, never run here.
      task.done = runTask(task.hook, task.vars, cwd, `not started: no checkout for it (${message(error)})`)
        .catch(() => undefined)
        .then(() => {
          task.finished = true;
        });
      return;
    }
    task.done = runTask(task.hook, task.vars, task.checkout?.dir ?? cwd)
      .then((index) => {
        task.index = index;
      })
      .catch(() => undefined)
      .finally(() => {
        task.finished = true;
      });
  };

  const startWaiting = async () => {
    for (const task of [...waiting]) {
      const busy = started.some((t) => t.hook.id === task.hook.id);
      const earlier = waiting.find((t) => t.hook.id === task.hook.id) !== task;
      if (busy || earlier) continue;
      waiting.splice(waiting.indexOf(task), 1);
      await start(task);
    }
  };

  const landFinished = async () => {
    for (const task of [...started]) {
      if (!task.finished) continue;
      started.splice(started.indexOf(task), 1);
      if (task.checkout === undefined) continue;
      const stem = hookFileStem(task.vars.iteration, task.hook.id);
      const ref = `${HOOK_REF_PREFIX}${task.vars.runId}/${stem}-${rescueStamp(now())}`;
      const outcome: Settled = await landHookCheckout(
        cwd,
        task.checkout,
        hookCommitMessage(task.hook.id, task.vars.iteration),
        ref,
      ).catch((error: unknown) => ({ kind: 'kept' as const, reason: `not landed: ${message(error)}` }));
      if (task.index !== undefined) settle(task, task.index, outcome);
    }
  };

  return {
    active: enabled.length > 0,
    async afterIteration(vars) {
      if (ending.signal.aborted) return;
      for (const hook of sequential) {
        if (ending.signal.aborted) return;
        // A throwing listener is a bug, but must not become an unhandled rejection that ends the run.
        await runSequential(hook, vars).catch(() => undefined);
      }
      for (const hook of parallel) waiting.push({ hook, vars, finished: false });
      await startWaiting().catch(() => undefined);
    },
    async betweenIterations() {
      if (ending.signal.aborted) return;
      await landFinished().catch(() => undefined);
      await startWaiting().catch(() => undefined);
    },
    async drain(timeoutMs, signal) {
      const deadline = Date.now() + Math.max(0, timeoutMs);
      for (;;) {
        await landFinished().catch(() => undefined);
        if (signal?.aborted || Date.now() >= deadline) break;
        await startWaiting().catch(() => undefined);
        if (started.length === 0) break;
        const next = Promise.race(started.map((t) => t.done ?? Promise.resolve()));
        if (!(await waitFor(next, deadline - Date.now(), signal))) break;
      }
      ending.abort();
      // What could not start is recorded as not started; what was killed still lands.
      for (const task of waiting.splice(0)) await runTask(task.hook, task.vars, cwd).catch(() => undefined);
      await Promise.all(started.map((t) => t.done));
      await landFinished().catch(() => undefined);
      await writes;
    },
    records: () => records.map((r) => ({ ...r })),
  };
}

type Settled =
  | { kind: 'landed'; commits: { sha: string; subject: string }[] }
  | { kind: 'kept'; reason: string; ref?: string };

/** Resolves true when `promise` settles within `ms`, false when the time runs out or `signal` aborts. */
function waitFor(promise: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), Math.max(0, ms));
    const onAbort = () => done(false);
    signal?.addEventListener('abort', onAbort, { once: true });
    function done(value: boolean) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    }
    promise.then(
      () => done(true),
      () => done(true),
    );
  });
}

/** `.ralph/workflows/`, found from the run folder `.ralph/runs/<name>/`. */
const defaultWorkflowsDir = (runDir: string): string =>
  path.join(path.dirname(path.dirname(runDir)), 'workflows');

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
