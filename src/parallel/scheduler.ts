import type { AnswerDesk } from '../run/answer-desk.js';
import type { LoopOutcome, RunContext } from '../run/run-context.js';
import type { WaitingStory } from './parallel-recovery.js';
import { Schedule } from './schedule.js';
import type { StateStore } from './state-store.js';

export interface ScheduleOptions {
  ctx: RunContext;
  store: StateStore;
  /** The repository's main checkout. */
  root: string;
  prdBranch: string;
  workers: number;
  /** Verified work a killed run left, to land first. */
  waiting: WaitingStory[];
  resumed: boolean;
  /** The run's questions and the answers people give. */
  desk: AnswerDesk;
  /** Stops every agent and gate at once (after an error); `ctx.killSignal` follows it. */
  abortAll(): void;
}

/**
 * The parallel run: up to `workers` stories at once, each attempt in its
 * own checkout (`runWorkerLane`), verified stories landed one at a time in
 * the order they passed (`landNext`), new stories picked as the PRD branch
 * moves. What comes next is the decision core's (`nextStoryStep`): the
 * iteration limit counts every worker's attempts, the budget counts the
 * attempts still running, a rate limit holds new starts (or moves them to a
 * fallback agent), the first Ctrl-C starts nothing new and lets running
 * stories land, the second stops everything. This loop carries it out.
 */
export async function schedule(options: ScheduleOptions): Promise<LoopOutcome> {
  const run = await Schedule.open(options);
  for (;;) {
    await run.failOnError();
    run.landNext();
    const step = run.decide();
    if (step.kind === 'attempt') {
      run.start(step.storyId ?? '');
      continue;
    }
    if (step.kind === 'park') {
      await run.park(step);
      continue;
    }
    if (await run.releaseStuckReservation()) continue;
    if (step.kind === 'stop') return run.finish(step);
    await run.wait(step.for);
  }
}
