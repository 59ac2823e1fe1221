import type { GoalMode, GoalRunState } from '../core/goal-types.js';
import { selectionFor } from './next-iteration.js';
import type { GoalProgress } from './progress-schema.js';

/** ✓ completed, ● the step the running iteration executes, ○ pending. */
export type StepState = 'done' | 'in-progress' | 'todo';

export type { GoalRunState } from '../core/goal-types.js';

export interface GoalStepView {
  id: string;
  prompt: string;
  state: StepState;
  /** Iterations that executed this step, and what they spent. */
  iterations: number;
  costUsd: number;
  durationMs: number;
}

export interface GoalRunSummary {
  name: string;
  goal: string;
  state: GoalRunState;
  /** The running iteration's mode, else the next one's; null once the goal is complete. */
  mode: GoalMode | null;
  /** The iteration running now, if any. */
  iteration: number | null;
  steps: GoalStepView[];
  done: number;
  total: number;
  iterations: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  /** Why the last session ended, while none runs. */
  stop: { reason: string; exitCode: number } | null;
  finalSummary: string | null;
  humanNeeded: { reason: string; details: string } | null;
}

/**
 * A goal run's progress as one summary. `running`: its lock is held, so a
 * `current` iteration is live rather than left by a killed run.
 */
export function summarizeGoalRun(progress: GoalProgress, running: boolean): GoalRunSummary {
  const live = running ? progress.current : null;
  const steps = progress.dynamicSteps.map((s): GoalStepView => {
    const worked = progress.iterations.filter((i) => i.stepId === s.id);
    return {
      id: s.id,
      prompt: s.prompt,
      state: s.status === 'completed' ? 'done' : live?.stepId === s.id ? 'in-progress' : 'todo',
      iterations: worked.length,
      costUsd: worked.reduce((sum, i) => sum + (i.costUsd ?? 0), 0),
      durationMs: worked.reduce((sum, i) => sum + (i.durationMs ?? 0), 0),
    };
  });
  const complete = progress.status === 'goal-complete';
  return {
    name: progress.name,
    goal: progress.goal,
    state: stateOf(progress, running),
    mode: live?.mode ?? (complete ? null : selectionFor(progress).mode),
    iteration: live?.iteration ?? null,
    steps,
    done: steps.filter((s) => s.state === 'done').length,
    total: steps.length,
    iterations: progress.iterations.length,
    costUsd: progress.stats.costUsd,
    inputTokens: progress.stats.inputTokens,
    outputTokens: progress.stats.outputTokens,
    stop: progress.stop ? { reason: progress.stop.reason, exitCode: progress.stop.exitCode } : null,
    finalSummary: progress.ralphExit.finalSummary,
    humanNeeded: progress.humanNeeded
      ? { reason: progress.humanNeeded.reason, details: progress.humanNeeded.details }
      : null,
  };
}

function stateOf(progress: GoalProgress, running: boolean): GoalRunState {
  // A session sets `in-progress` when it starts and its outcome when it ends, before it lets go of the lock.
  switch (progress.status) {
    case 'goal-complete':
      return 'complete';
    case 'needs-human':
      return 'needs-human';
    case 'stopped':
      return running ? 'running' : 'stopped';
    case 'in-progress':
      // No lock, yet in progress: the run was killed; the next one resumes it.
      return running ? 'running' : 'interrupted';
  }
}
