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

/** Run names from a goal text stop at a word boundary at or before this length. */
export const GOAL_NAME_LENGTH = 40;

/**
 * A readable run name for a goal text: the first words of its first line,
 * kebab-case, at most `GOAL_NAME_LENGTH` characters (`Write two step
 * files.` → `write-two-step-files`). Running the same goal again finds the
 * same run; a different goal that starts with the same words is told apart
 * by `chooseGoalRunName`.
 */
export function nameForGoal(goal: string): string {
  const firstLine = goal.trim().split('\n')[0] ?? '';
  // Accents are dropped rather than turned into word breaks: `Créer` → `creer`.
  const plain = firstLine
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const words = plain
    .split(/\s+/)
    .map((w) => w.replace(/[^a-z0-9._-]+/g, '-').replace(/^[-._]+|[-._]+$/g, ''))
    .filter((w) => w !== '');
  let name = '';
  for (const word of words) {
    const next = name === '' ? word : `${name}-${word}`;
    if (next.length > GOAL_NAME_LENGTH) break;
    name = next;
  }
  // A first word longer than the limit is cut rather than lost.
  if (name === '') name = (words[0] ?? '').slice(0, GOAL_NAME_LENGTH);
  const safe = sanitizeName(name);
  return safe === 'prd' && name !== 'prd' ? 'goal' : safe;
}
