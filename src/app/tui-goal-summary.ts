/** A goal run as the TUI shows it: its steps as the tab's list, its mode and hook tasks, from PROGRESS.yaml. */
import { existsSync } from 'node:fs';
import { firstLine } from '../core/first-line.js';
import type { GoalSpec } from '../goal/goal-spec.js';
import { type GoalStepView, summarizeGoalRun } from '../goal/goal-summary.js';
import { goalRunFiles, readGoalProgress } from '../goal/progress-file.js';
import type { GoalProgress } from '../goal/progress-schema.js';
import type { HookTaskRecord } from '../run/hooks-types.js';
import { agentTimeLimits } from '../run/run-limits.js';
import { sandboxOf } from '../sandbox/run-sandbox.js';
import type { Config } from '../state/config.js';
import { runDir, worktreeDir } from '../state/layout.js';
import { inspectLock } from '../state/lock.js';
import type { HookTaskLine, PrdSummary, StorySummary } from '../ui/tui/session.js';
import type { GoalOptions } from './command-options.js';
import { goalMaxIterations } from './execute-goal.js';

export interface GoalSummaryContext {
  root: string;
  config: Config;
  spec: GoalSpec;
  opts: GoalOptions;
  /** The limit the user set with `+`/`-` for the next run, when they did. */
  pendingLimit?: number;
  running: boolean;
}

/** The hook tasks a tab opens with: those of the last few iterations. */
const HOOK_LINES = 12;

export async function readGoalTabSummary(ctx: GoalSummaryContext): Promise<PrdSummary> {
  const { root, config, spec, opts } = ctx;
  const dir = runDir(root, spec.name);
  const files = goalRunFiles(dir);
  const progress = await readGoalProgress(files.progress).catch(() => null);
  const running = ctx.running || (await inspectLock(files.lock)).kind === 'held';
  const summary = progress === null ? null : summarizeGoalRun(progress, running);
  const worktree = worktreeDir(root, spec.name);
  const [title = spec.name, ...rest] = spec.goal.trim().split('\n');
  const description = rest.join('\n').trim();
  return {
    name: spec.name,
    project: title.trim(),
    ...(description !== '' ? { description } : {}),
    stories: summary === null || progress === null ? [] : summary.steps.map((s) => stepStory(s, progress)),
    ...(existsSync(worktree) ? { worktree, branch: `ralph/${spec.name}` } : {}),
    agent: opts.agent ?? config.agent.provider,
    ...sandboxOf(opts, config),
    maxIterations: ctx.pendingLimit ?? goalMaxIterations(opts, spec, config),
    iteration: progress?.stats.currentIteration ?? 0,
    idleTimeoutMs: agentTimeLimits(config, opts).idleTimeoutMs,
    costUsd: progress?.stats.costUsd ?? 0,
    running,
    goal: {
      text: spec.goal,
      state: summary?.state ?? (running ? 'running' : 'stopped'),
      // No progress yet: the first iteration plans.
      mode: summary === null ? 'planning' : summary.mode,
      hookTasks: (progress?.hookTasks ?? []).slice(-HOOK_LINES).map(hookLine),
    },
  };
}

/** A step as a row of the list: what it asks, and what the iterations that worked on it said. */
function stepStory(step: GoalStepView, progress: GoalProgress): StorySummary {
  const worked = progress.iterations.filter((i) => i.stepId === step.id);
  const failed = worked.filter((i) => i.outcome === 'failed').at(-1);
  const history = worked.map((i) => `iteration ${i.iteration} (${i.outcome}): ${firstLine(i.summary)}`);
  return {
    id: step.id,
    title: firstLine(step.prompt),
    status: step.state,
    description: step.prompt,
    acceptanceCriteria: [],
    dependsOn: [],
    attempts: step.iterations,
    costUsd: step.costUsd,
    durationMs: step.durationMs,
    ...(failed !== undefined && step.state !== 'done' ? { lastFailure: failed.summary } : {}),
    ...(history.length > 0 ? { progressEntry: history.join('\n') } : {}),
  };
}

function hookLine(record: HookTaskRecord): HookTaskLine {
  const detail =
    record.keptAt !== undefined
      ? `not on the branch (${record.keptAt})`
      : (record.error ??
        (record.commits?.length
          ? `committed ${record.commits.map((c) => c.slice(0, 7)).join(', ')}`
          : undefined));
  return {
    iteration: record.iteration,
    hookId: record.hookId,
    parallel: record.parallel,
    status: record.status,
    ...(detail !== undefined ? { detail } : {}),
  };
}
