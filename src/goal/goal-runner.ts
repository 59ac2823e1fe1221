import { openAnswerDesk } from '../run/answer-desk.js';
import { recoverHooks } from '../run/hook-recovery.js';
import { lockTakeoverEvent } from '../run/lock-events.js';
import { removeStaleTemporaries } from '../state/atomic.js';
import { ensureRalphGitignore } from '../state/gitignore.js';
import { ralphDir } from '../state/layout.js';
import { acquireLock } from '../state/lock.js';
import type { GoalContext, GoalLoopOptions, GoalOutcome } from './goal-context.js';
import { GoalRun } from './goal-run.js';
import { alreadyComplete, recoverInterruptedIteration } from './goal-session.js';
import { repoRelativeGoalFile } from './next-iteration.js';
import { goalRunFiles, readGoalProgress } from './progress-file.js';
import { ProgressStore } from './progress-store.js';
import { beginSession, newGoalProgress } from './progress-update.js';
import { prepareGoalTree } from './tree.js';

export type { GoalOutcome } from './goal-context.js';

/**
 * Goal mode (Ralph Mode, seed 004): plan → execute → reflect, one fresh agent
 * per iteration, until the agent reports the goal complete (and the tool
 * accepts it), asks for a human, or a limit stops the run. Per-iteration
 * hooks run after every iteration that reached an outcome.
 */
export async function runGoalLoop(options: GoalLoopOptions): Promise<GoalOutcome> {
  const files = goalRunFiles(options.runDir);
  const now = options.now ?? (() => new Date());
  const { emit } = options;
  const { spec } = options;
  const lock =
    options.lock ??
    (await acquireLock(files.lock, {
      command: `ralph goal ${spec.name}`,
      ...(options.force ? { force: true } : {}),
    }));
  try {
    const takeover = lockTakeoverEvent(lock);
    if (takeover) emit(takeover);
    await ensureRalphGitignore(options.cwd);
    for (const dir of [files.dir, ralphDir(options.cwd)]) await removeStaleTemporaries(dir);
    const goalFileInRepo = repoRelativeGoalFile(options.cwd, spec.goalFile);
    const saved = await readGoalProgress(files.progress);
    if (saved?.status === 'goal-complete' && saved.current === null) {
      return alreadyComplete(saved, emit, files.progress);
    }
    const fresh = saved ?? newGoalProgress(spec, now(), goalFileInRepo);
    const progress = beginSession(fresh, spec, {
      maxIterations: options.limits.maxIterations,
      ...(goalFileInRepo !== undefined ? { goalFile: goalFileInRepo } : {}),
    });
    const store = new ProgressStore(files.progress, progress, now);
    const desk = await openAnswerDesk({ runDir: files.dir, emit, now });
    try {
      const ctx: GoalContext = {
        ...options,
        files,
        now,
        emit,
        store,
        desk,
        ...(goalFileInRepo !== undefined ? { goalFileInRepo } : {}),
      };
      await recoverInterruptedIteration(ctx);
      await recoverHooks(ctx.cwd, files.dir, spec.name, emit);
      const stashed = await prepareGoalTree(ctx);
      if (stashed) emit({ type: 'changes-stashed', ...stashed });
      await store.update((p) => p);
      return await iterate(ctx, saved !== null);
    } finally {
      desk.close();
    }
  } finally {
    if (options.lock === undefined) await lock.release();
  }
}

/**
 * Iterations until the decision core (`nextGoalStep`) says stop: this loop
 * only carries out its answer.
 */
async function iterate(ctx: GoalContext, resumed: boolean): Promise<GoalOutcome> {
  const run = new GoalRun(ctx);
  run.announce(resumed);
  for (;;) {
    const step = run.decide();
    if (step.kind === 'stop') return run.finish(step);
    if (step.kind === 'wait') await run.waitForAnswer();
    else {
      const stopped = await run.iterate();
      if (stopped) return run.finish(stopped);
    }
  }
}
