import path from 'node:path';
import { type ModeSelection, selectGoalMode } from '../core/goal-mode.js';
import { buildGoalPrompt } from '../core/goal-prompt.js';
import type { GoalProgress } from './progress-schema.js';

/** The mode (and step) of the next iteration of a run with this progress. */
export function selectionFor(progress: GoalProgress): ModeSelection {
  return selectGoalMode({
    steps: progress.dynamicSteps,
    acceptedIterations: progress.iterations.filter((i) => i.outcome !== 'failed').length,
    idleStreak: progress.idleStreak,
    idleThreshold: progress.ralph.idleThreshold,
  });
}

export interface PromptSettings {
  template: string;
  checks: readonly string[];
  goalFileInRepo?: string;
  /** A person's answer to the question the run stopped with (`needs-human`), once given. */
  answer?: string;
}

/** The prompt of iteration `iteration` of a run with this progress. */
export function promptFor(
  progress: GoalProgress,
  selection: ModeSelection,
  iteration: number,
  settings: PromptSettings,
): string {
  const human = progress.humanNeeded;
  return buildGoalPrompt({
    template: settings.template,
    goal: progress.goal,
    successCriteria: progress.successCriteria,
    iteration,
    selection,
    steps: progress.dynamicSteps,
    history: progress.iterations,
    feedback: progress.feedback,
    ...(human
      ? {
          humanNeeded: {
            reason: human.reason,
            details: human.details,
            iteration: human.iteration,
            ...(settings.answer !== undefined ? { answer: settings.answer } : {}),
          },
        }
      : {}),
    minIterations: progress.ralph.minIterations,
    checks: settings.checks,
    ...(settings.goalFileInRepo !== undefined ? { goalFile: settings.goalFileInRepo } : {}),
  });
}

/** The goal file relative to the repository root (with `/`), or undefined when it lies outside. */
export function repoRelativeGoalFile(root: string, file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  const rel = path.relative(root, file);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel)
    ? undefined
    : rel.split(path.sep).join('/');
}
