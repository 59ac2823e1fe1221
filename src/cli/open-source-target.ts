/** A command's tasks: a task file as `[target]` names it, or with `--source github` a label's open issues. */
import { type SourceFlags, wantsGithub } from '../app/command-options.js';
import type { GithubTaskContext } from '../app/github-tasks.js';
import { showIssue } from '../app/show-issue.js';
import type { TaskContext } from '../app/task-context.js';
import { UsageError } from '../core/errors.js';
import type { RunEventSink } from '../events/run-event.js';
import type { GithubWait } from '../github/client.js';
import { openTaskContext } from './open-target.js';
import { printError } from './output.js';

/**
 * Where GitHub's waits are told: on stderr until the run's events are open,
 * then as `waiting` events (plain lines, `--json`, the log, `events.jsonl`).
 */
export interface WaitRoute {
  onWait(wait: GithubWait): void;
  toEvents(emit: RunEventSink): void;
}

export function waitRoute(): WaitRoute {
  let emit: RunEventSink | null = null;
  return {
    onWait: (wait) => {
      if (emit) emit({ type: 'waiting', ...wait });
      else printError(`ralph: waiting ${Math.ceil(wait.waitMs / 1000)} s: ${wait.message}`);
    },
    toEvents: (to) => {
      emit = to;
    },
  };
}

export interface OpenOptions {
  cwd?: string;
  knownRoot?: string;
  waits?: WaitRoute;
  signal?: AbortSignal;
}

export async function openCommandTarget(
  target: string | undefined,
  flags: SourceFlags,
  options: OpenOptions = {},
): Promise<TaskContext | GithubTaskContext> {
  const cwd = options.cwd ?? process.cwd();
  if (!wantsGithub(flags)) return openTaskContext(target, cwd, options.knownRoot);
  if (target !== undefined) {
    throw new UsageError(`--source github reads issues, not ${JSON.stringify(target)}`, [
      'leave out the target, or leave out --source',
    ]);
  }
  // Octokit loads only for a command over GitHub issues.
  const { openGithubTasks } = await import('../app/github-tasks.js');
  return openGithubTasks(flags, {
    cwd,
    ...(options.knownRoot ? { knownRoot: options.knownRoot } : {}),
    warn: (warning) => printError(showIssue(warning)),
    onWait: (options.waits ?? waitRoute()).onWait,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

export const isGithubContext = (ctx: TaskContext): ctx is GithubTaskContext => 'github' in ctx;
