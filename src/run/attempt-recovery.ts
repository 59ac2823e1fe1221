import { stopLeftovers } from '../attempt/stop-leftovers.js';
import { commitsSince } from '../git/index.js';
import type { RunState } from '../state/run-state.js';
import { markPassed, unparkStory } from '../state/run-state-update.js';
import { readTaskFile } from './read-task-file.js';
import { writePassFiles } from './record-pass.js';
import type { RunContext } from './run-context.js';
import { saveState } from './state-io.js';
import { rollBack } from './story-rollback.js';
import { undoAttempt } from './undo-attempt.js';

/**
 * A run killed mid-attempt left `current` set. Its agent may still be running,
 * found by its pid or its token: stop it and everything it started. A pass that was verified but not fully
 * recorded is completed; anything else is rolled back and not counted.
 */
export async function recoverInterruptedAttempt(ctx: RunContext, state: RunState): Promise<RunState> {
  const current = state.current;
  if (current === null) return state;
  await stopLeftovers({ agentPid: current.agentPid, token: current.agentToken });

  if (current.phase === 'recording') {
    const prd = await readTaskFile(ctx);
    const story = prd.stories.find((s) => s.id === current.storyId);
    if (story) {
      const known = new Set(current.passCommits ?? []);
      const commits = (await commitsSince(ctx.cwd, current.headBefore)).filter((c) => known.has(c.sha));
      await writePassFiles(ctx, {
        story,
        headBefore: current.headBefore,
        commits,
        summary: '(recorded after an interrupted run)',
        learnings: [],
      });
      const next = markPassed(state, story.id, { commits: [...known], now: ctx.now() });
      await saveState(ctx, next);
      ctx.emit({ type: 'recovered', storyId: story.id, action: 'completed-record' });
      return next;
    }
  }

  await rollBack(ctx, current.storyId, current.attempt, current.headBefore);
  const next = undoAttempt(state, current.storyId, ctx.now());
  await saveState(ctx, next);
  ctx.emit({ type: 'recovered', storyId: current.storyId, action: 'rolled-back' });
  return next;
}

/**
 * A run that ended (rather than died) leaves a stop record. Starting again is
 * a new session: parked stories get a fresh set of attempts, since the user
 * has presumably changed something. Totals and history are kept.
 */
export function startSession(state: RunState, now: Date): RunState {
  if (state.stop === undefined) return state;
  const { stop: _stop, ...rest } = state;
  let next: RunState = { ...rest, updatedAt: now.toISOString() };
  for (const [id, story] of Object.entries(next.stories)) {
    if (story.parked) next = unparkStory(next, id, now);
  }
  return next;
}
