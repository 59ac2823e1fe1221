import type { HookVars } from './hooks-types.js';

/**
 * The template variables of a hook, by name. `SPRINT_ID` and `PHASE_ID` are
 * the names seed 004's hooks use, kept so those hooks run unchanged.
 */
export function hookVariables(vars: HookVars): Record<string, string> {
  const stepOrStory = vars.stepId ?? vars.storyId ?? '';
  return {
    ITERATION_TRANSCRIPT: vars.transcript,
    ITERATION: String(vars.iteration),
    RUN_ID: vars.runId,
    STORY_ID: vars.storyId ?? '',
    STEP_ID: vars.stepId ?? '',
    PRD: vars.prd ?? '',
    SPRINT_ID: vars.runId,
    PHASE_ID: stepOrStory,
  };
}

const REFERENCE = /\$(?:\{([A-Z][A-Z0-9_]*)\}|([A-Z][A-Z0-9_]*))/g;

/**
 * Substitutes `$NAME` and `${NAME}` in a `prompt:` hook's text. Names that
 * are not hook variables are left exactly as written. (`run:` hooks get the
 * variables in their environment instead: nothing is ever pasted into a
 * shell command line.)
 */
export function substituteHookVariables(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(REFERENCE, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? '';
    return Object.hasOwn(variables, name) ? (variables[name] ?? '') : whole;
  });
}

/** A file-name-safe form of a hook id, for its output file. */
export const hookFileStem = (iteration: number, hookId: string): string =>
  `${iteration}-${hookId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80)}`;
