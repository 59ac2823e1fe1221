import type { GoalResult, GoalStep, HumanNeeded } from './goal-types.js';

export interface ApplyInput {
  steps: readonly GoalStep[];
  idleStreak: number;
  /** The iteration that produced the result (1-based). */
  iteration: number;
  minIterations: number;
  result: GoalResult;
  now: Date;
}

export type GoalDecision =
  | { kind: 'continue' }
  | { kind: 'complete'; summary: string }
  | { kind: 'needs-human'; humanNeeded: HumanNeeded }
  /** `goal-complete` came too early; the loop goes on and the agent is told why. */
  | { kind: 'refused'; reason: string };

export interface ApplyOutcome {
  steps: GoalStep[];
  idleStreak: number;
  decision: GoalDecision;
  completed: string[];
  added: GoalStep[];
  /** Ids the agent named that are not on the list (or, for completions, not pending). */
  ignored: string[];
}

/**
 * Applies an accepted result to the step list (seed 004, "Exit detection"):
 * completed ids are marked, `id: null` steps are appended with fresh ids, and
 * the status decides whether the loop goes on. Steps already listed keep
 * their place and text whatever the agent restates: the tool's record wins.
 * A new step whose text equals a pending one is not added twice.
 */
export function applyGoalResult(input: ApplyInput): ApplyOutcome {
  const { result, iteration } = input;
  const at = input.now.toISOString();
  const byId = new Map(input.steps.map((s) => [s.id, s]));
  const ignored: string[] = [];
  const completed: string[] = [];
  const steps = input.steps.map((s) => ({ ...s }));

  for (const id of new Set(result.completedStepIds)) {
    const step = steps.find((s) => s.id === id);
    if (step === undefined) {
      ignored.push(id);
    } else if (step.status === 'pending') {
      step.status = 'completed';
      step.completedAt = at;
      step.completedInIteration = iteration;
      completed.push(id);
    }
  }

  const added: GoalStep[] = [];
  let next = nextStepNumber(input.steps);
  const pendingTexts = new Set(steps.filter((s) => s.status === 'pending').map((s) => normalise(s.prompt)));
  for (const proposed of result.pendingSteps) {
    if (proposed.id !== null) {
      if (!byId.has(proposed.id)) ignored.push(proposed.id);
      continue;
    }
    const key = normalise(proposed.prompt);
    if (pendingTexts.has(key)) continue;
    pendingTexts.add(key);
    const step: GoalStep = {
      id: `step-${next++}`,
      prompt: proposed.prompt.trim(),
      status: 'pending',
      addedAt: at,
      addedInIteration: iteration,
    };
    steps.push(step);
    added.push(step);
  }

  const progressed = completed.length > 0 || added.length > 0;
  return {
    steps,
    idleStreak: progressed ? 0 : input.idleStreak + 1,
    decision: decide(input),
    completed,
    added,
    ignored: [...new Set(ignored)],
  };
}

function decide(input: ApplyInput): GoalDecision {
  const { result, iteration, minIterations } = input;
  switch (result.status) {
    case 'continue':
      return { kind: 'continue' };
    case 'needs-human':
      return {
        kind: 'needs-human',
        humanNeeded: result.humanNeeded ?? { reason: result.summary, details: '' },
      };
    case 'goal-complete':
      if (iteration < minIterations) {
        return {
          kind: 'refused',
          reason:
            `goal-complete was refused: this goal needs at least ${minIterations} iterations ` +
            `(min-iterations) and that was iteration ${iteration}. Keep going: check the work ` +
            'against the goal and its success criteria, test it, improve it, or add the steps still needed.',
        };
      }
      return { kind: 'complete', summary: result.goalCompleteSummary ?? result.summary };
  }
}

/** One more than the highest `step-N` so far, so ids are never reused. */
function nextStepNumber(steps: readonly GoalStep[]): number {
  let max = -1;
  for (const step of steps) {
    const n = /^step-(\d+)$/.exec(step.id)?.[1];
    if (n !== undefined) max = Math.max(max, Number(n));
  }
  return max + 1;
}

const normalise = (text: string): string => text.trim().replace(/\s+/g, ' ').toLowerCase();
