import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STORY_PROMPT } from '../../core/embedded-prompts.js';
import { UsageError } from '../../core/errors.js';
import type { LoopEvent } from '../../loop/events.js';
import { loadConfigOrThrow } from '../../state/config.js';
import { createPlainReporter } from '../../ui/plain-reporter.js';
import { canDrawLive } from '../../ui/tui/can-draw-live.js';
import { dryRun } from '../dry-run.js';
import { openLog } from '../event-log-file.js';
import { executeRun } from '../execute-run.js';
import { withInterrupts } from '../interrupts.js';
import { requireGitRepository } from '../require-git.js';
import { openTaskContext } from '../task-context.js';
import { isGoalFileTarget, runGoalFile } from './goal.js';
import type { RunOptions } from './run-options.js';

export async function runCommand(target: string | undefined, opts: RunOptions): Promise<number> {
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

  if (opts.dryRun) return dryRun(ctx, config, opts, promptTemplate);

  const logPath = opts.log ?? join(ctx.target.runDir, 'ralph.log');
  const log = openLog(logPath);
  const toScreen = opts.json
    ? (event: LoopEvent) => process.stdout.write(`${JSON.stringify(event)}\n`)
    : createPlainReporter({
        verbose: opts.verbose ?? false,
        write: (line) => process.stdout.write(`${line}\n`),
      });
  const emit = (event: LoopEvent) => {
    log.write(event);
    toScreen(event);
  };
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
      ({ stop, kill }) => executeRun(ctx, config, opts, { promptTemplate, emit, stop, kill }),
    );
  } finally {
    await log.close();
  }
}

/** `.ralph/prompt.md` overrides the built-in story prompt. */
export function loadPromptTemplate(root: string): string {
  const custom = join(root, '.ralph', 'prompt.md');
  return existsSync(custom) ? readFileSync(custom, 'utf8') : STORY_PROMPT;
}
