/** A PRD as the TUI shows it: the live task file, the run state, the progress entries, the lock. */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { storiesLeft } from '../core/forecast.js';
import { waitingStories } from '../core/questions.js';
import { remainingStories } from '../core/select.js';
import { agentTimeLimits } from '../run/run-limits.js';
import { sandboxOf } from '../sandbox/run-sandbox.js';
import type { Config } from '../state/config.js';
import { prdsDir, worktreeDir } from '../state/layout.js';
import { inspectLock } from '../state/lock.js';
import { readProgress } from '../state/progress.js';
import { listQuestions } from '../state/questions.js';
import type { ResolvedTarget } from '../state/resolve-target.js';
import { parkedIn, runForecast } from '../state/run-forecast.js';
import { readRunState } from '../state/run-state.js';
import type { PrdSummary, StorySummary } from '../ui/tui/session.js';
import type { RunOptions } from './command-options.js';
import { liveTaskPath, readForNextRun } from './task-context.js';

export interface SummaryContext {
  root: string;
  config: Config;
  opts: RunOptions;
  /** The limit the user set with `+`/`-` for the next run, when they did. */
  pendingLimit?: number;
  running: boolean;
}

export async function readPrdSummary(target: ResolvedTarget, ctx: SummaryContext): Promise<PrdSummary> {
  const { root, config, opts } = ctx;
  const name = target.name;
  const live = liveTaskPath(root, target);
  const read = await readForNextRun(root, target);
  const run = await readRunState(join(target.runDir, 'state.json')).catch(() => null);
  const progress = await readProgress(
    live === target.taskPath ? target.progressPath : join(live, '..', 'progress.md'),
  );
  const questions = await listQuestions(target.runDir).catch(() => []);
  const waiting = waitingStories(questions);
  const stories: StorySummary[] = read.ok
    ? read.prd.stories.map((s) => {
        const r = run?.stories[s.id];
        const entry = progressEntryOf(progress, s.id);
        const question = questions.findLast((q) => q.storyId === s.id);
        const status =
          s.status === 'done' ? s.status : waiting.has(s.id) ? 'waiting' : r?.parked ? 'parked' : s.status;
        return {
          id: s.id,
          title: s.title,
          status,
          description: s.description,
          acceptanceCriteria: s.acceptanceCriteria,
          dependsOn: s.dependsOn,
          attempts: r?.attempts ?? 0,
          costUsd: r?.costUsd ?? 0,
          durationMs: r?.durationMs ?? 0,
          ...(r?.lastFailure ? { lastFailure: r.lastFailure.reason } : {}),
          ...(entry ? { progressEntry: entry } : {}),
          ...(question
            ? {
                question: {
                  id: question.id,
                  text: question.question,
                  ...(question.answer ? { answer: question.answer.text } : {}),
                },
              }
            : {}),
        };
      })
    : [];
  const worktree = worktreeDir(root, name);
  const lock = await inspectLock(join(target.runDir, 'lock'));
  // The engine's default: the stories left in scope, plus five.
  const scope = { onlyStoryId: opts.story, resumeFromId: opts.resumeFrom };
  const base = read.ok ? remainingStories(read.prd.stories, scope).length + 5 : 5;
  const forecast = read.ok
    ? runForecast(run, storiesLeft(read.prd.stories, scope, parkedIn(run)), opts.parallel ?? 1)
    : null;
  return {
    name,
    project: read.ok ? read.prd.project : name,
    ...(read.ok && read.prd.description ? { description: read.prd.description } : {}),
    stories,
    ...(existsSync(worktree) ? { worktree } : {}),
    ...(read.ok && read.prd.branchName ? { branch: read.prd.branchName } : {}),
    agent: opts.agent ?? config.agent.provider,
    ...sandboxOf(opts, config),
    maxIterations: ctx.pendingLimit ?? opts.maxIterations ?? config.limits.maxIterations ?? base,
    iteration: run?.iteration ?? 0,
    idleTimeoutMs: agentTimeLimits(config, opts).idleTimeoutMs,
    costUsd: run?.totals.costUsd ?? 0,
    running: ctx.running || lock.kind === 'held',
    forecast,
  };
}

/** How the user names the target on the command line: the PRD name, or the task file's path. */
export function commandTarget(root: string, target: ResolvedTarget, cwd = process.cwd()): string {
  const underPrds = relative(prdsDir(root), target.taskPath);
  if (!underPrds.startsWith('..') && underPrds.split(/[\\/]/)[0] === target.name) return target.name;
  return relative(cwd, target.taskPath) || target.taskPath;
}

/** The story's entry in the progress file: from its `## … - <id>: …` heading to the `---` after it. */
function progressEntryOf(progress: string, id: string): string | undefined {
  const lines = progress.split('\n');
  const start = lines.findIndex((l) => l.startsWith('## ') && l.includes(` - ${id}: `));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && l.trim() === '---');
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}
