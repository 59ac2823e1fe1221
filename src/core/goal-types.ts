/**
 * The domain of goal mode (Ralph Mode, seed 004): a goal the agent breaks
 * into steps itself, iteration by iteration, until it reports the goal
 * complete. Plain data; the persisted form is validated in src/goal.
 */

/** What an iteration is asked to do (see `selectGoalMode`). */
export const GOAL_MODES = ['planning', 'executing', 'reflecting'] as const;
export type GoalMode = (typeof GOAL_MODES)[number];

/** Where a goal run stands, as `ralph list`, `ralph status` and the TUI show it. */
export type GoalRunState = 'running' | 'complete' | 'needs-human' | 'stopped' | 'interrupted';

export type GoalStepStatus = 'pending' | 'completed';

export interface GoalStep {
  /** Assigned by the tool: `step-0`, `step-1`, … never reused. */
  id: string;
  prompt: string;
  status: GoalStepStatus;
  addedAt: string;
  addedInIteration: number;
  completedAt?: string;
  completedInIteration?: number;
}

/** The statuses of the agent's JSON result. */
export const GOAL_RESULT_STATUSES = ['continue', 'goal-complete', 'needs-human'] as const;
export type GoalResultStatus = (typeof GOAL_RESULT_STATUSES)[number];

export interface HumanNeeded {
  reason: string;
  details: string;
}

/** The agent's report at the end of an iteration, validated. */
export interface GoalResult {
  status: GoalResultStatus;
  summary: string;
  completedStepIds: string[];
  /** `id: null` is a new step; an existing id only restates a step already on the list. */
  pendingSteps: { id: string | null; prompt: string }[];
  goalCompleteSummary?: string;
  humanNeeded?: HumanNeeded;
}

export interface GoalSettings {
  /** Iterations in a row without progress before an iteration reflects. */
  idleThreshold: number;
  /** `goal-complete` is refused before this iteration number. */
  minIterations: number;
}

export const DEFAULT_IDLE_THRESHOLD = 3;
export const DEFAULT_MIN_ITERATIONS = 0;

/** Told to the next iteration: why the previous one failed, or why its result was refused. */
export interface GoalFeedback {
  iteration: number;
  kind: 'failed' | 'refused' | 'warning';
  message: string;
  /** The failing check's output, when a check failed. */
  outputTail?: string;
}

export type IterationOutcome = 'continue' | 'goal-complete' | 'needs-human' | 'refused' | 'failed';

/** One line of the run's history, shown to later iterations as their memory. */
export interface IterationRecord {
  iteration: number;
  mode: GoalMode;
  stepId?: string;
  outcome: IterationOutcome;
  summary: string;
  at: string;
}
