import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventFollower } from '../../app/event-sinks.js';
import { executeRun } from '../../app/execute-run.js';
import type { GithubTaskContext } from '../../app/github-tasks.js';
import { withInterrupts } from '../../app/interrupts.js';
import { requireSharedRemote } from '../../app/role-session.js';
import { webhookTargets } from '../../app/webhooks.js';
import { STORY_PROMPT } from '../../core/embedded-prompts.js';
import { UsageError } from '../../core/errors.js';
import { requireSandbox } from '../../sandbox/run-sandbox.js';
import { loadConfigOrThrow } from '../../state/config.js';
import { canDrawLive } from '../../ui/tui/can-draw-live.js';
import { dryRun } from '../dry-run.js';
import { isGithubContext, openCommandTarget, waitRoute } from '../open-source-target.js';
import { requireGitRepository } from '../require-git.js';
import { openRunSinks, warnOnStderr } from '../run-sinks.js';
import { isGoalFileTarget, runGoalFile } from './goal.js';
import type { RunOptions } from './run-options.js';

export async function runCommand(target: string | undefined, opts: RunOptions): Promise<number> {
  if (opts.worker) checkWorkerFlags(opts);
  await requireGitRepository(process.cwd(), '`ralph run`');
  if (opts.source === undefined && isGoalFileTarget(target)) return runGoalFile(target, opts);
  const waits = waitRoute();
  // GitHub's waits (rate limit, outage) end at the first Ctrl-C.
  const githubStop = new AbortController();
  const ctx = await openCommandTarget(target, opts, { waits, signal: githubStop.signal });
  const github = isGithubContext(ctx) ? ctx : null;
  const config = await loadConfigOrThrow(ctx.root);
  const ids = new Set(ctx.prd.stories.map((s) => s.id));
  for (const [flag, id] of [
    ['--story', opts.story],
    ['--resume-from', opts.resumeFrom],
  ] as const) {
    if (id !== undefined && !ids.has(id))
      throw new UsageError(`${flag} ${id}: no such story in ${ctx.target.name}`);
  }
  const promptTemplate = loadPromptTemplate(ctx.root);
  // Never a silent run without the sandbox asked for: refused here, before a dry run, the TUI or anything else.
  requireSandbox(opts, config);

  if (opts.dryRun) return dryRun(ctx, config, opts, promptTemplate);

  if (opts.worker) await requireSharedRemote(ctx.root, 'run --worker');
  // Before anything changes: a token that may only read stops the run here (exit 2).
  const followers = github ? [await githubFollower(github)] : [];
  const log = openRunSinks(ctx.target.name, ctx.target.runDir, {
    ...opts,
    followers,
    webhooks: webhookTargets(config, opts.notify),
  });
  const emit = log.emit;
  waits.toEvents(emit);
  if (opts.worker) {
    const { runWorkerJob } = await import('./worker.js');
    return runWorkerJob(ctx, config, opts, { promptTemplate, ...log });
  }
  // Where Ink cannot draw live (CI set), a terminal gets the plain lines rather than a blank screen.
  // The TUI's tabs are the project's task files; a run over GitHub issues shows plain lines.
  const tui = github === null && !opts.headless && !opts.json && process.stdout.isTTY && process.stdin.isTTY;
  if (tui && canDrawLive()) {
    await log.close();
    // Ink and React load only for a terminal run.
    const { runInTui } = await import('../tui-session.js');
    return runInTui(ctx, config, opts, promptTemplate);
  }
  try {
    return await withInterrupts(
      (how) => {
        githubStop.abort();
        emit({ type: 'stop-requested', how });
      },
      ({ stop, kill }) =>
        executeRun(ctx, config, opts, { promptTemplate, emit, stop, kill, warn: warnOnStderr }),
    );
  } finally {
    await log.close();
  }
}

/**
 * A run over GitHub issues, before anything changes: the labels it writes
 * exist (a token that may only read stops the run here, exit 2); then the
 * follower that writes the run's progress back to the issues.
 */
async function githubFollower(ctx: GithubTaskContext): Promise<EventFollower> {
  const [{ prepareGithubRun }, { githubWriteBack }] = await Promise.all([
    import('../../app/github-tasks.js'),
    import('../../app/github-write-back.js'),
  ]);
  await prepareGithubRun(ctx);
  return githubWriteBack({
    api: ctx.github.api,
    run: ctx.target.name,
    runDir: ctx.target.runDir,
    label: ctx.github.label,
    failed: warnOnStderr,
  });
}

/** `--worker` is one story's job: these flags make no sense with it. Checked before anything is touched. */
function checkWorkerFlags(opts: RunOptions): void {
  if (opts.story === undefined) throw new UsageError('--worker needs --story <id>: a worker runs one story');
  const clashes = [
    ['--parallel', (opts.parallel ?? 1) > 1],
    ['--resume-from', opts.resumeFrom !== undefined],
    ['--dry-run', opts.dryRun === true],
    ['--push', opts.push === true],
    ['--pr', opts.pr === true],
  ] as const;
  const used = clashes.filter(([, on]) => on).map(([flag]) => flag);
  if (used.length > 0) {
    throw new UsageError(`--worker cannot be combined with ${used.join(', ')}`, [
      'a worker pushes its verified story branch itself; `ralph integrate` lands it',
    ]);
  }
}

/** `.ralph/prompt.md` overrides the built-in story prompt. */
export function loadPromptTemplate(root: string): string {
  const custom = join(root, '.ralph', 'prompt.md');
  return existsSync(custom) ? readFileSync(custom, 'utf8') : STORY_PROMPT;
}
