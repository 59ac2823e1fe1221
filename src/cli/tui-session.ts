import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ExitCode } from '../core/errors.js';
import { remainingStories } from '../core/select.js';
import type { LoopSteering } from '../loop/context.js';
import type { LoopEvent } from '../loop/events.js';
import { readPrd } from '../sources/load-task-source.js';
import type { Config } from '../state/config.js';
import { worktreeDir } from '../state/layout.js';
import { inspectLock } from '../state/lock.js';
import { readProgress } from '../state/progress.js';
import { listPrdNames, resolveTarget } from '../state/resolve-target.js';
import { readRunState } from '../state/run-state.js';
import { HAND_OFF_EXIT_CODE, runTui } from '../ui/tui/index.js';
import type { ActionResult, PrdSummary, SessionEvent, StorySummary, TuiSession } from '../ui/tui/session.js';
import { editCommand } from './commands/edit.js';
import { newCommand } from './commands/new.js';
import type { RunOptions } from './commands/run-options.js';
import { openLog } from './event-log-file.js';
import { executeRun } from './execute-run.js';
import { liveTaskPath, openTaskContext, type TaskContext } from './task-context.js';
import { saveSettings, settingsOf } from './tui-settings.js';

const execFileAsync = promisify(execFile);

interface Running {
  stop: AbortController;
  kill: AbortController;
  steering: LoopSteering;
}

/** `ralph run` on a terminal: the TUI, with the target selected and every PRD of the project in tabs. */
export async function runInTui(
  ctx: TaskContext,
  initialConfig: Config,
  opts: RunOptions,
  promptTemplate: string,
): Promise<number> {
  let config = initialConfig;
  const listeners = new Set<(name: string, event: SessionEvent) => void>();
  const running = new Map<string, Running>();
  const steering = new Map<string, LoopSteering>();
  const targets = new Map<string, string | undefined>([[ctx.target.name, ctx.target.taskPath]]);
  for (const name of await listPrdNames(ctx.root)) if (!targets.has(name)) targets.set(name, name);

  const contextOf = async (name: string): Promise<TaskContext> =>
    name === ctx.target.name
      ? openTaskContext(ctx.target.taskPath)
      : openTaskContext(targets.get(name) ?? name);

  const summary = async (name: string): Promise<PrdSummary> => {
    const target = name === ctx.target.name ? ctx.target : await resolveTarget(ctx.root, name);
    const live = liveTaskPath(ctx.root, target);
    const read = await readPrd(live);
    const run = await readRunState(join(target.runDir, 'state.json')).catch(() => null);
    const progress = await readProgress(
      live === target.taskPath ? target.progressPath : join(live, '..', 'progress.md'),
    );
    const stories: StorySummary[] = read.ok
      ? read.prd.stories.map((s) => {
          const r = run?.stories[s.id];
          const entry = progressEntryOf(progress, s.id);
          return {
            id: s.id,
            title: s.title,
            status: r?.parked && s.status !== 'done' ? 'parked' : s.status,
            description: s.description,
            acceptanceCriteria: s.acceptanceCriteria,
            dependsOn: s.dependsOn,
            attempts: r?.attempts ?? 0,
            costUsd: r?.costUsd ?? 0,
            durationMs: r?.durationMs ?? 0,
            ...(r?.lastFailure ? { lastFailure: r.lastFailure.reason } : {}),
            ...(entry ? { progressEntry: entry } : {}),
          };
        })
      : [];
    const worktree = worktreeDir(ctx.root, name);
    const lock = await inspectLock(join(target.runDir, 'lock'));
    const base = read.ok ? remainingStories(read.prd.stories).length + 5 : 5;
    return {
      name,
      project: read.ok ? read.prd.project : name,
      ...(read.ok && read.prd.description ? { description: read.prd.description } : {}),
      stories,
      ...(existsSync(worktree) ? { worktree } : {}),
      ...(read.ok && read.prd.branchName ? { branch: read.prd.branchName } : {}),
      agent: opts.agent ?? config.agent.provider,
      maxIterations:
        (opts.maxIterations ?? config.limits.maxIterations ?? base) +
        (steering.get(name)?.extraIterations ?? 0),
      costUsd: run?.totals.costUsd ?? 0,
      running: running.has(name) || lock.kind === 'held',
    };
  };

  const prds: PrdSummary[] = [];
  for (const name of targets.keys()) {
    try {
      prds.push(await summary(name));
    } catch {
      // A PRD that cannot be read is left out of the tabs; `ralph validate` explains it.
    }
  }

  // `n` / `e` leave the TUI and run `ralph new` / `ralph edit` in the freed terminal.
  let handOff: (() => Promise<number>) | undefined;
  const agentChoice = {
    ...(opts.agent ? { agent: opts.agent } : {}),
    ...(opts.agentPath ? { agentPath: opts.agentPath } : {}),
    ...(opts.model ? { model: opts.model } : {}),
  };

  const session: TuiSession = {
    prds,
    initial: ctx.target.name,
    async start(name) {
      if (running.has(name)) return;
      const target = await contextOf(name);
      const handles: Running = {
        stop: new AbortController(),
        kill: new AbortController(),
        steering: steering.get(name) ?? { extraIterations: 0 },
      };
      steering.set(name, handles.steering);
      running.set(name, handles);
      const log = openLog(opts.log ?? join(target.target.runDir, 'ralph.log'));
      const emit = (event: LoopEvent) => {
        log.write(event);
        for (const listener of listeners) listener(name, event);
      };
      try {
        return await executeRun(target, config, opts, {
          promptTemplate,
          emit,
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
        for (const listener of listeners) listener(name, { type: 'stop-requested', how: 'graceful' });
      }
    },
    stopNow(name) {
      const run = running.get(name);
      if (!run) return;
      run.stop.abort();
      run.kill.abort();
      for (const listener of listeners) listener(name, { type: 'stop-requested', how: 'immediate' });
    },
    adjustMaxIterations(name, delta) {
      const s = steering.get(name) ?? { extraIterations: 0 };
      s.extraIterations += delta;
      steering.set(name, s);
      const known = prds.find((p) => p.name === name);
      return Math.max(1, (known?.maxIterations ?? 5) + s.extraIterations);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reloadPrd: summary,
    async diff(name, storyId) {
      const cwd = existsSync(worktreeDir(ctx.root, name)) ? worktreeDir(ctx.root, name) : ctx.root;
      if (storyId === null) return git(cwd, ['diff', 'HEAD']);
      const target = name === ctx.target.name ? ctx.target : await resolveTarget(ctx.root, name);
      const commits =
        (await readRunState(join(target.runDir, 'state.json')))?.stories[storyId]?.commits ?? [];
      if (commits.length === 0) return `no commits recorded for ${storyId} yet`;
      return git(cwd, ['show', '--stat', '--patch', ...commits]);
    },
    // The completion screen's m and c run the same commands as a user would, so their output is captured, not printed over the TUI.
    newPrd() {
      handOff = () => newCommand(undefined, [], agentChoice);
    },
    editPrd(name) {
      handOff = () => editCommand(name, agentChoice);
    },
    merge: (name) => ralphCommand(ctx.root, ['merge', name]),
    clean: (name) => ralphCommand(ctx.root, ['clean', name]),
    config: {
      get: () => settingsOf(config),
      async save(patch) {
        const saved = await saveSettings(ctx.root, patch);
        if (saved.config) config = saved.config;
        return saved.issues;
      },
    },
  };

  const abort = new AbortController();
  const onTerm = () => abort.abort();
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onTerm);
  try {
    const code = await runTui(session, { signal: abort.signal });
    if (code === HAND_OFF_EXIT_CODE) return handOff ? await handOff() : ExitCode.Success;
    return code;
  } finally {
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onTerm);
  }
}

/** Runs this ralph's own CLI with arguments (never a shell) and reports its outcome for the TUI. */
async function ralphCommand(cwd: string, args: string[]): Promise<ActionResult> {
  const script = process.argv[1];
  if (script === undefined) return { ok: false, message: 'cannot find the ralph command' };
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [script, ...args], { cwd });
    return { ok: true, message: lastLines(`${stdout}${stderr}`) || `${args[0]} done` };
  } catch (error) {
    const out =
      error && typeof error === 'object' && 'stderr' in error ? String(error.stderr) : String(error);
    return { ok: false, message: lastLines(out) };
  }
}

const lastLines = (text: string): string => text.trim().split('\n').slice(-4).join('\n');

async function git(cwd: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync('git', args, { cwd, maxBuffer: 32 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The story's entry in the progress file: from its `## … - <id>: …` heading to the `---` after it. */
function progressEntryOf(progress: string, id: string): string | undefined {
  const lines = progress.split('\n');
  const start = lines.findIndex((l) => l.startsWith('## ') && l.includes(` - ${id}: `));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && l.trim() === '---');
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}
