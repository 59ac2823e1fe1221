import { withRole } from '../../app/role-session.js';
import type { TaskContext } from '../../app/task-context.js';
import { ExitCode } from '../../core/errors.js';
import type { RunEvent } from '../../events/run-event.js';
import { type WorkerOutcome, workerRole } from '../../scale-out/worker-role.js';
import type { Config } from '../../state/config.js';
import { plural } from '../format.js';
import { print } from '../output.js';
import type { RunOptions } from './run-options.js';

/**
 * `ralph run [prd] --story ID --worker`: one story's job. Its events go out
 * as a run's do; the last line (`worker-finished` with `--json`) says what
 * became of the story. Exit 0 when the story is verified on the remote (now
 * or before) or already landed, 1 when it was not run or ran out of retries,
 * 130 when interrupted.
 */
export async function runWorkerJob(
  ctx: TaskContext,
  config: Config,
  opts: RunOptions,
  io: { promptTemplate: string; emit(event: RunEvent): void; close(): Promise<void> },
): Promise<number> {
  try {
    const storyId = opts.story ?? '';
    const outcome = await withRole(
      ctx,
      config,
      opts,
      { command: 'run --worker', agent: 'required', promptTemplate: io.promptTemplate, emit: io.emit },
      (role) => workerRole(role, storyId),
    );
    io.emit({ type: 'worker-finished', storyId, ...outcome });
    if (!opts.json) print(describe(storyId, outcome));
    return exitCodeOf(outcome);
  } finally {
    await io.close();
  }
}

function exitCodeOf(outcome: WorkerOutcome): number {
  switch (outcome.kind) {
    case 'verified':
    case 'already-verified':
    case 'already-landed':
      return ExitCode.Success;
    case 'aborted':
      return ExitCode.Interrupted;
    case 'agent-unusable':
      return ExitCode.AgentUnusable;
    case 'outage':
      return ExitCode.LimitReached;
    default:
      return ExitCode.WorkLeft;
  }
}

function describe(storyId: string, outcome: WorkerOutcome): string {
  switch (outcome.kind) {
    case 'verified':
      return `✓ ${storyId} verified (attempt ${outcome.verdict.attempt}) and pushed as ${outcome.branch}`;
    case 'already-verified':
      return `${storyId} is already verified on ${outcome.branch}; nothing to do`;
    case 'already-landed':
      return `${storyId} has already landed; nothing to do`;
    case 'not-ready':
      return `${storyId} was not run: ${outcome.reason}`;
    case 'parked':
      return `${storyId} parked on origin after ${plural(outcome.attempts, 'attempt')}: ${outcome.reason}`;
    case 'rate-limited':
      return `${storyId} was rate limited; nothing pushed, it will be planned again`;
    case 'aborted':
      return `${storyId} interrupted; nothing pushed, it will be planned again`;
    case 'asked':
      return `${storyId} asks: ${outcome.reason}; nothing pushed`;
    case 'agent-unusable':
    case 'outage':
      return `${storyId} was not worked: ${outcome.reason}; nothing pushed or counted`;
  }
}
