import { writeGoalProgress } from './progress-file.js';
import type { GoalProgress } from './progress-schema.js';

/**
 * The run's progress in memory and on disk. The loop and the background
 * hooks both update it; writes are queued so each one writes the latest
 * state whole, atomically, and never two at once.
 */
export class ProgressStore {
  private state: GoalProgress;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    initial: GoalProgress,
    private readonly now: () => Date,
  ) {
    this.state = initial;
  }

  get(): GoalProgress {
    return this.state;
  }

  /** Changes the state and writes it; resolves once written, rejects if the write failed. */
  update(change: (progress: GoalProgress) => GoalProgress): Promise<void> {
    const next = change(this.state);
    this.state = { ...next, stats: { ...next.stats, updatedAt: this.now().toISOString() } };
    const write = this.queue.catch(() => undefined).then(() => writeGoalProgress(this.file, this.state));
    this.queue = write;
    return write;
  }

  /** Waits for every queued write. */
  async flush(): Promise<void> {
    await this.queue;
  }
}
