/**
 * The TUI on this terminal: the sessions of `ralph run` and `ralph goal`
 * (src/app/tui-session.ts, src/app/tui-goal-session.ts) drawn by Ink until
 * the user quits, then a short summary left in the shell.
 */
import type { GoalOptions, RunOptions } from '../app/command-options.js';
import type { TaskContext } from '../app/task-context.js';
import { openGoalTuiSession } from '../app/tui-goal-session.js';
import { type OpenedTuiSession, openRunTuiSession } from '../app/tui-session.js';
import type { GoalSpec } from '../goal/goal-spec.js';
import type { Config } from '../state/config.js';
import { openTaskContext } from './open-target.js';
import { print, ringBell } from './output.js';
import { handOffToWriter } from './tui-hand-off.js';

/** `ralph run` on a terminal: every PRD of the project in tabs, the target selected. */
export async function runInTui(
  ctx: TaskContext,
  config: Config,
  opts: RunOptions,
  promptTemplate: string,
): Promise<number> {
  const opened = await openRunTuiSession(ctx, config, opts, promptTemplate, {
    writeBell: ringBell,
    openTarget: (target) => openTaskContext(target),
    handOff: handOffToWriter,
  });
  return showTui(opened);
}

/** `ralph goal` on a terminal: the goal run as the one tab. */
export async function runGoalInTui(
  root: string,
  config: Config,
  spec: GoalSpec,
  opts: GoalOptions,
  promptTemplate: string,
): Promise<number> {
  return showTui(await openGoalTuiSession(root, config, spec, opts, promptTemplate, { writeBell: ringBell }));
}

/**
 * Runs the TUI over a session until the user quits; then prints `summarize`'s
 * lines to the shell. Resolves with the TUI's exit code.
 */
async function showTui({ session, summarize }: OpenedTuiSession): Promise<number> {
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
