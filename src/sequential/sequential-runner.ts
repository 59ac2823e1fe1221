import { openAnswerDesk } from '../run/answer-desk.js';
import { lockTakeoverEvent } from '../run/lock-events.js';
import type { LoopOptions, LoopOutcome, RunContext } from '../run/run-context.js';
import { beginSession } from '../run/session-start.js';
import { runFiles } from '../state/layout.js';
import { acquireLock } from '../state/lock.js';
import { readRunState } from '../state/run-state.js';
import { newRunState } from '../state/run-state-update.js';
import { SequentialRun } from './sequential-run.js';

/**
 * The Ralph loop: select → record HEAD → prompt → spawn → parse → verify →
 * record, until every story in scope has passed or a stop rule fires.
 */
export type { LoopOutcome } from '../run/run-context.js';

export async function runLoop(options: LoopOptions): Promise<LoopOutcome> {
  const files = runFiles(options.runDir);
  const now = options.now ?? (() => new Date());
  const ctx: RunContext = { ...options, files, now };

  const lock = options.lock ?? (await acquireLock(files.lock, { command: `ralph run ${ctx.name}` }));
  try {
    const takeover = lockTakeoverEvent(lock);
    if (takeover) ctx.emit(takeover);
    const saved = await readRunState(files.state);
    const resumed = saved !== null && (saved.current !== null || saved.stop === undefined);
    const state = await beginSession(
      ctx,
      saved ?? newRunState({ name: ctx.name, taskPath: ctx.source.path, now: now() }),
      { hooks: true },
    );
    const desk = await openAnswerDesk({ runDir: files.dir, emit: ctx.emit, now });
    try {
      return await iterate(await SequentialRun.open(ctx, state, resumed, desk));
    } finally {
      desk.close();
    }
  } finally {
    if (options.lock === undefined) await lock.release();
  }
}

/**
 * One story at a time, in the PRD's own checkout: the decision core
 * (`nextStoryStep`, the parallel scheduler's with one worker) says what
 * comes next; this loop only carries it out.
 */
async function iterate(run: SequentialRun): Promise<LoopOutcome> {
  for (;;) {
    const step = await run.decide();
    switch (step.kind) {
      case 'stop':
        return run.finish(step.reason, step.exitCode, step.message);
      case 'wait':
        // One worker and no holds outlive an attempt here: only --wait for an answer is left.
        await run.waitForAnswer();
        break;
      case 'park':
        await run.park(step.storyId, step.attempts, step.reason);
        break;
      case 'attempt': {
        const stopped = await run.attempt(step.storyId ?? '');
        if (stopped) return run.finish(stopped.reason, stopped.exitCode, stopped.message);
        break;
      }
    }
  }
}
