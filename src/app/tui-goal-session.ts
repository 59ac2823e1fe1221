import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { RunEventSink } from '../events/run-event.js';
import type { GoalSpec } from '../goal/goal-spec.js';
import { goalRunFiles, readGoalProgress } from '../goal/progress-file.js';
import type { Config } from '../state/config.js';
import { runDir, worktreeDir } from '../state/layout.js';
import { exitSummary } from '../ui/tui/exit-summary.js';
import type { PrdSummary, SessionEvent, TuiSession } from '../ui/tui/session.js';
import type { GoalOptions } from './command-options.js';
import { openEventSinks } from './event-sinks.js';
import { executeGoal } from './execute-goal.js';
import { checkAgentFor } from './tui-agent-check.js';
import { git, workInProgress } from './tui-diff.js';
import { readGoalTabSummary } from './tui-goal-summary.js';
import { FROM_TUI, type OpenedTuiSession, ralphCommand, type TuiSessionHooks } from './tui-session.js';
import { saveSettings, settingsOf } from './tui-settings.js';
import { alertWishes, webhookTargets } from './webhooks.js';

/**
 * `ralph goal` on a terminal: the TUI's session with the goal run as its
 * tab, whose list is the steps the agent makes, with the mode in the header
 * and the hook tasks in the details. `s` starts (or resumes) it, as in
 * `ralph run`.
 */
export async function openGoalTuiSession(
  root: string,
  initialConfig: Config,
  spec: GoalSpec,
  opts: GoalOptions,
  promptTemplate: string,
  hooks: Pick<TuiSessionHooks, 'writeBell'>,
): Promise<OpenedTuiSession> {
  let config = initialConfig;
  const { name } = spec;
  const listeners = new Set<(name: string, event: SessionEvent) => void>();
  let running: { stop: AbortController; kill: AbortController; limit: number; emit: RunEventSink } | null =
    null;
  /** A limit set with `+`/`-` before the run starts: the start takes it. */
  let pendingLimit: number | undefined;
  const summary = (): Promise<PrdSummary> =>
    readGoalTabSummary({
      root,
      config,
      spec,
      opts,
      running: running !== null,
      ...(pendingLimit !== undefined ? { pendingLimit } : {}),
    });
  let known = await summary();
  const send = (event: SessionEvent) => {
    for (const listener of listeners) listener(name, event);
  };

  const session: TuiSession = {
    prds: [known],
    initial: name,
    async start() {
      if (running !== null) return;
      const limit = pendingLimit ?? known.maxIterations;
      pendingLimit = undefined;
      const log = openEventSinks({
        run: name,
        runDir: runDir(root, name),
        ...(opts.log !== undefined ? { log: opts.log } : {}),
        webhooks: webhookTargets(config, opts.notify),
        alerts: { wishes: () => alertWishes(config), writeBell: hooks.writeBell },
        listeners: [send],
      });
      const handles = { stop: new AbortController(), kill: new AbortController(), limit, emit: log.emit };
      running = handles;
      try {
        return await executeGoal(
          root,
          config,
          spec,
          { ...opts, maxIterations: limit },
          {
            promptTemplate,
            emit: log.emit,
            stop: handles.stop.signal,
            kill: handles.kill.signal,
          },
        );
      } finally {
        running = null;
        await log.close();
      }
    },
    pause() {
      if (running === null || running.stop.signal.aborted) return;
      running.stop.abort();
      running.emit({ type: 'stop-requested', how: 'graceful', from: FROM_TUI });
    },
    stopNow() {
      if (running === null) return;
      running.stop.abort();
      running.kill.abort();
      running.emit({ type: 'stop-requested', how: 'immediate', from: FROM_TUI });
    },
    adjustMaxIterations(_name, delta) {
      // A running goal loop keeps the limit it started with; a change is for the next start.
      if (running !== null) return running.limit;
      pendingLimit = Math.max(1, (pendingLimit ?? known.maxIterations) + delta);
      return pendingLimit;
    },
    checkAgent: () =>
      checkAgentFor(config, {
        ...(opts.agent ? { agent: opts.agent } : {}),
        ...(opts.agentPath ? { agentPath: opts.agentPath } : {}),
      }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async reloadPrd() {
      known = await summary();
      return known;
    },
    // A goal run keeps no commit list per step: the diff is of the run's checkout, and its latest commits.
    async diff(_name, stepId) {
      const cwd = existsSync(worktreeDir(root, name)) ? worktreeDir(root, name) : root;
      if (stepId !== null) return git(cwd, ['log', '-n', '10', '--stat', '--patch']);
      const progress = await readGoalProgress(goalRunFiles(runDir(root, name)).progress).catch(() => null);
      const current = progress?.current;
      return workInProgress(
        cwd,
        current ? { label: `iteration ${current.iteration}`, headBefore: current.headBefore } : null,
      );
    },
    merge: (target) => ralphCommand(root, ['merge', target]),
    clean: (target) => ralphCommand(root, ['clean', target]),
    config: {
      get: () => settingsOf(config),
      async save(patch) {
        const saved = await saveSettings(root, patch);
        if (saved.config) config = saved.config;
        return saved.issues;
      },
    },
  };

  const summarize = async (): Promise<string[]> => {
    const prd = await summary().catch(() => undefined);
    return prd ? exitSummary([{ prd, target: resumeTarget(spec) }]) : [];
  };
  return { session, summarize };
}

/** How to run the same goal again from the shell. */
function resumeTarget(spec: GoalSpec): string {
  if (spec.goalFile !== undefined) return `--file ${relative(process.cwd(), spec.goalFile) || spec.goalFile}`;
  const oneLine = !spec.goal.includes('\n') && spec.goal.length <= 100;
  return `--name ${spec.name} ${oneLine ? JSON.stringify(spec.goal) : '"<the same goal>"'}`;
}
