import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { executeRun } from '../../app/execute-run.js';
import { withInterrupts } from '../../app/interrupts.js';
import { requireSharedRemote } from '../../app/role-session.js';
import { STORY_PROMPT } from '../../core/embedded-prompts.js';
import { UsageError } from '../../core/errors.js';
import { requireSandbox } from '../../sandbox/run-sandbox.js';
import { loadConfigOrThrow } from '../../state/config.js';
import { canDrawLive } from '../../ui/tui/can-draw-live.js';
import { dryRun } from '../dry-run.js';
import { openTaskContext } from '../open-target.js';
import { requireGitRepository } from '../require-git.js';
import { openRunSinks, warnOnStderr } from '../run-sinks.js';
import { isGoalFileTarget, runGoalFile } from './goal.js';
import type { RunOptions } from './run-options.js';

export async function runCommand(target: string | undefined, opts: RunOptions): Promise<number> {
  if (opts.worker) checkWorkerFlags(opts);
  await requireGitRepository(process.cwd(), '`ralph run`');
  if (isGoalFileTarget(target)) return runGoalFile(target, opts);
  const ctx = await openTaskContext(target);
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
  const log = openRunSinks(ctx.target.name, ctx.target.runDir, opts);
  const emit = log.emit;
  if (opts.worker) {
    const { runWorkerJob } = await import('./worker.js');
    return runWorkerJob(ctx, config, opts, { promptTemplate, ...log });
  }
  // Where Ink cannot draw live (CI set), a terminal gets the plain lines rather than a blank screen.
  if (!opts.headless && !opts.json && process.stdout.isTTY && process.stdin.isTTY && canDrawLive()) {
    await log.close();
    // Ink and React load only for a terminal run.
    const { runInTui } = await import('../tui-session.js');
    return runInTui(ctx, config, opts, promptTemplate);
  }
  try {
    return await withInterrupts(
      (how) => emit({ type: 'stop-requested', how }),
      ({ stop, kill }) =>
        executeRun(ctx, config, opts, { promptTemplate, emit, stop, kill, warn: warnOnStderr }),
    );
  } finally {
    await log.close();
  }
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
