import { createHash } from 'node:crypto';
import { DEFAULT_IDLE_THRESHOLD, DEFAULT_MIN_ITERATIONS, type GoalSettings } from '../core/goal-types.js';
import type { Hook } from '../state/config-schema.js';
import { sanitizeName } from '../state/layout.js';

/** Everything a goal run is asked to do, from a goal text or a SPRINT.yaml. */
export interface GoalSpec {
  /** Names the run folder `.ralph/runs/<name>/`. */
  name: string;
  goal: string;
  successCriteria: string[];
  settings: GoalSettings;
  /** From the goal file; the command line and the config can still set it. */
  maxIterations?: number;
  /** The SPRINT.yaml, absolute, when the goal came from one. */
  goalFile?: string;
  /** The config's hooks with the goal file's additions and switches applied. */
  hooks: Hook[];
}

export interface TextGoalOptions {
  name?: string;
  successCriteria?: readonly string[];
  idleThreshold?: number;
  minIterations?: number;
  hooks?: readonly Hook[];
}

export function goalSpecFromText(goal: string, options: TextGoalOptions = {}): GoalSpec {
  return {
    name: options.name ?? nameForGoal(goal),
    goal: goal.trim(),
    successCriteria: (options.successCriteria ?? []).map((c) => c.trim()).filter((c) => c !== ''),
    settings: {
      idleThreshold: options.idleThreshold ?? DEFAULT_IDLE_THRESHOLD,
      minIterations: options.minIterations ?? DEFAULT_MIN_ITERATIONS,
    },
    hooks: [...(options.hooks ?? [])],
  };
}

/**
 * A run name for a goal text: its first words, plus a short hash of the whole
 * text, so running the same goal again resumes it and a different goal that
 * starts the same way gets a run of its own.
 */
export function nameForGoal(goal: string): string {
  const words = goal.trim().toLowerCase().split(/\s+/).slice(0, 6).join('-');
  const slug = sanitizeName(words)
    .slice(0, 48)
    .replace(/[-.]+$/, '');
  const hash = createHash('sha256').update(goal.trim()).digest('hex').slice(0, 6);
  return slug === '' || slug === 'prd' ? `goal-${hash}` : `${slug}-${hash}`;
}
