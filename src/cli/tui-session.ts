import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setUpAgent } from '../agents/agent-setup.js';
import { checkAgentLive } from '../agents/live-check.js';
import { executeRun } from '../app/execute-run.js';
import type { TaskContext } from '../app/task-context.js';
import { webhookTargets } from '../app/webhooks.js';
import type { LoopSteering } from '../run/run-context.js';
import type { Config } from '../state/config.js';
import { worktreeDir } from '../state/layout.js';
import { recordAnswer } from '../state/questions.js';
import { listPrdNames, type ResolvedTarget, resolveTarget } from '../state/resolve-target.js';
import { readRunState } from '../state/run-state.js';
import { exitSummary } from '../ui/tui/exit-summary.js';
import type { TuiExit } from '../ui/tui/run-tui.js';
import type { ActionResult, PrdSummary, SessionEvent, TuiSession } from '../ui/tui/session.js';
import type { RunOptions } from './commands/run-options.js';
import { openTaskContext } from './open-target.js';
import { print } from './output.js';
import { openRunSinks } from './run-sinks.js';
import { checkAgentFor } from './tui-agent-check.js';
import { git, workInProgress } from './tui-diff.js';
import { handOffToWriter } from './tui-hand-off.js';
import { saveSettings, settingsOf } from './tui-settings.js';
import { commandTarget, readPrdSummary } from './tui-summary.js';

const execFileAsync = promisify(execFile);

interface Running {
  stop: AbortController;
  kill: AbortController;
  steering: LoopSteering;
  /** Iterations finished in this run, counted as the engine counts them against the limit. */
  finished: number;
  /** The user set this session's limit (`+`/`-`), before the start or during the run. */
  steered: boolean;
  /** The run state's iteration when the session started, and the latest one it began. */
  startIteration: number;
  iteration: number;
}

/**
 * `ralph run` on a terminal: the TUI, with the target selected and every PRD
 * of the project in tabs. Resolves with the exit code once the TUI has
 * closed and a short summary has been printed.
 */
export async function runInTui(
  ctx: TaskContext,
  initialConfig: Config,
  opts: RunOptions,
  promptTemplate: string,
): Promise<number> {
  let config = initialConfig;
  const listeners = new Set<(name: string, event: SessionEvent) => void>();
  const running = new Map<string, Running>();
  /** Limits set with `+`/`-` while no loop runs: the next start takes them, then they are gone. */
  const pending = new Map<string, number>();
  /** Each PRD's latest summary, for `+`/`-` (which answer at once). */
  const known = new Map<string, PrdSummary>();
  // Tabs in name order whatever the target: `ralph run second` selects `second`, it does not move it.
  const targets = new Map<string, string>();
  for (const name of await listPrdNames(ctx.root)) targets.set(name, name);
  if (!targets.has(ctx.target.name)) targets.set(ctx.target.name, ctx.target.taskPath);

  const resolve = (name: string): Promise<ResolvedTarget> =>
    name === ctx.target.name
      ? Promise.resolve(ctx.target)
      : resolveTarget(ctx.root, targets.get(name) ?? name);
  const summary = async (name: string): Promise<PrdSummary> => {
    const pendingLimit = pending.get(name);
    const read = await readPrdSummary(await resolve(name), {
      root: ctx.root,
      config,
      opts,
      running: running.has(name),
      ...(pendingLimit !== undefined ? { pendingLimit } : {}),
    });
    known.set(name, read);
    return read;
  };
  const send = (name: string, event: SessionEvent) => {
    for (const listener of listeners) listener(name, event);
  };

  /**
   * A limit the user set is theirs until the run is over: paused or stopped (`p`, `x`), the next
   * start goes up to the same last iteration, rather than back to the default. Set before the
   * event goes out, so the reload it causes shows it.
   */
  const keepSteeredLimit = (name: string, handles: Running, reason: string) => {
    if (!handles.steered || reason !== 'interrupted') return;
    const last = handles.startIteration + (handles.steering.maxIterations ?? 0);
    pending.set(name, Math.max(1, last - handles.iteration));
  };

  const prds: PrdSummary[] = [];
  for (const name of targets.keys()) {
    try {
      prds.push(await summary(name));
    } catch {
      // A PRD that cannot be read is left out of the tabs; `ralph validate` explains it.
    }
  }

  const writerOptions = {
    ...(opts.agent ? { agent: opts.agent } : {}),
    ...(opts.agentPath ? { agentPath: opts.agentPath } : {}),
    ...(opts.model ? { model: opts.model } : {}),
  };

  const session: TuiSession = {
    prds,
    initial: ctx.target.name,
    async start(name) {
      if (running.has(name)) return;
      const target =
        name === ctx.target.name
          ? await openTaskContext(ctx.target.taskPath)
          : await openTaskContext(targets.get(name) ?? name);
      // The limit the TUI showed is the one the engine uses: the user's, else the default it computed.
      const before = known.get(name) ?? (await summary(name));
      const steered = pending.get(name);
      pending.delete(name);
      const handles: Running = {
        stop: new AbortController(),
        kill: new AbortController(),
        steering: { maxIterations: steered ?? before.maxIterations },
        finished: 0,
        steered: steered !== undefined,
        startIteration: before.iteration,
        iteration: before.iteration,
      };
      running.set(name, handles);
      const log = openRunSinks(name, target.target.runDir, {
        ...(opts.log !== undefined ? { log: opts.log } : {}),
        screen: false,
        webhooks: webhookTargets(config, opts.notify),
        listeners: [
          (event) => {
            if (event.type === 'story-passed' || event.type === 'attempt-failed') handles.finished++;
            if (event.type === 'iteration-started')
              handles.iteration = Math.max(handles.iteration, event.iteration);
            if (event.type === 'run-finished') keepSteeredLimit(name, handles, event.reason);
            send(name, event);
          },
        ],
      });
      try {
        return await executeRun(target, config, opts, {
          promptTemplate,
          emit: log.emit,
          stop: handles.stop.signal,
          kill: handles.kill.signal,
          steering: handles.steering,
          warn: () => undefined,
        });
      } finally {
        running.delete(name);
        await log.close();
      }
    },
    pause(name) {
      const run = running.get(name);
      if (run && !run.stop.signal.aborted) {
        run.stop.abort();
        send(name, { type: 'stop-requested', how: 'graceful' });
      }
    },
    stopNow(name) {
      const run = running.get(name);
      if (!run) return;
      run.stop.abort();
      run.kill.abort();
      send(name, { type: 'stop-requested', how: 'immediate' });
    },
    adjustMaxIterations(name, delta) {
      const run = running.get(name);
      if (run) {
        // Never below the iterations run plus one: `-` cannot end a run, `p` does that.
        const next = Math.max(run.finished + 1, (run.steering.maxIterations ?? 1) + delta);
        run.steering.maxIterations = next;
        run.steered = true;
        return next;
      }
      const next = Math.max(1, (pending.get(name) ?? known.get(name)?.maxIterations ?? 1) + delta);
      pending.set(name, next);
      return next;
    },
    checkAgent: () => checkAgentFor(config, writerOptions),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reloadPrd: summary,
    async diff(name, storyId) {
      const cwd = existsSync(worktreeDir(ctx.root, name)) ? worktreeDir(ctx.root, name) : ctx.root;
      const target = await resolve(name);
      const state = await readRunState(join(target.runDir, 'state.json')).catch(() => null);
      if (storyId === null) {
        const current = state?.current;
        return workInProgress(
          cwd,
          current
            ? { label: `${current.storyId} attempt ${current.attempt}`, headBefore: current.headBefore }
            : null,
        );
      }
      const commits = state?.stories[storyId]?.commits ?? [];
      if (commits.length === 0) return `no commits recorded for ${storyId} yet`;
      return git(cwd, ['show', '--stat', '--patch', ...commits]);
    },
    async recheckAgent(name) {
      const agent = await setUpAgent(config, opts);
      const live = await checkAgentLive(agent);
      const who = agent.adapter.name;
      return live.ok
        ? { ok: true, message: `${who} answered: s starts ${name}` }
        : {
            ok: false,
            message: `${who} still cannot be used: ${live.failure.cause}: ${live.failure.message}`,
          };
    },
    // The completion screen's m and c run the same commands as a user would, their output captured for the TUI.
    async answer(name, questionId, text) {
      const target = await resolve(name);
      try {
        await recordAnswer(target.runDir, questionId, text);
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
      const live = running.has(name);
      return {
        ok: true,
        message: live ? 'answered; the running loop picks it up' : 'answered; the next run (s) takes it in',
      };
    },
    merge: (name) => ralphCommand(ctx.root, ['merge', name]),
    clean: (name) => ralphCommand(ctx.root, ['clean', name]),
    async handOff(request, terminal) {
      const asked = { ...request, name: targets.get(request.name) ?? request.name };
      const result = await handOffToWriter(asked, terminal, writerOptions);
      if (result.name === undefined) return result;
      const name = result.name;
      if (!targets.has(name)) targets.set(name, name);
      const prd = await summary(name).catch(() => undefined);
      return { ok: result.ok, message: result.message, ...(prd ? { prd } : {}) };
    },
    config: {
      get: () => settingsOf(config),
      async save(patch) {
        const saved = await saveSettings(ctx.root, patch);
        if (saved.config) config = saved.config;
        return saved.issues;
      },
    },
  };

  return showTui(session, async (exit) => {
    const names = exit.started.length > 0 ? exit.started : exit.selected ? [exit.selected] : [];
    const entries = [];
    for (const name of names) {
      const prd = await summary(name).catch(() => undefined);
      if (prd) entries.push({ prd, target: commandTarget(ctx.root, await resolve(name)) });
    }
    return exitSummary(entries);
  });
}

/**
 * Runs the TUI over a session until the user quits; then prints `summarize`'s
 * lines to the shell. Resolves with the TUI's exit code.
 */
export async function showTui(
  session: TuiSession,
  summarize: (exit: TuiExit) => Promise<string[]>,
): Promise<number> {
  const abort = new AbortController();
  const onTerm = () => abort.abort();
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onTerm);
  try {
    const { runTui } = await importTui();
    const exit = await runTui(session, {
      stdin: process.stdin,
      stdout: process.stdout,
      signal: abort.signal,
    });
    // Closed by SIGTERM or SIGHUP: the terminal may be gone, and nobody reads a summary.
    if (abort.signal.aborted) return exit.code;
    for (const line of await summarize(exit)) print(line);
    return exit.code;
  } finally {
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onTerm);
  }
}

/**
 * Loads the TUI (Ink and React) with React's production build: the
 * development one, picked when NODE_ENV is unset, is several times slower
 * and records a performance entry for every component drawn, which a TUI
 * left running for a night accumulates. NODE_ENV is set only while the
 * modules load, so agents, gates and hooks never inherit it.
 */
export async function importTui(): Promise<typeof import('../ui/tui/run-tui.js')> {
  const before = process.env.NODE_ENV;
  if (before === undefined) process.env.NODE_ENV = 'production';
  try {
    return await import('../ui/tui/run-tui.js');
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
  }
}

/** Runs this ralph's own CLI with arguments (never a shell) and reports its outcome for the TUI. */
export async function ralphCommand(cwd: string, args: string[]): Promise<ActionResult> {
  const script = process.argv[1];
  if (script === undefined) return { ok: false, message: 'cannot find the ralph command' };
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [script, ...args], { cwd });
    return { ok: true, message: lastLines(`${stdout}${stderr}`) || `${args[0]} done` };
  } catch (error) {
    const out =
      error && typeof error === 'object' && 'stderr' in error ? String(error.stderr) : String(error);
    return { ok: false, message: lastLines(out).replace(/^ralph: /, '') };
  }
}

const lastLines = (text: string): string => text.trim().split('\n').slice(-4).join('\n');
