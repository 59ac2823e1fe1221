/**
 * The completion screen's figures and step lines, laid out for a width:
 * totals over the whole run (every session), and each step's outcome with
 * its reason on a few wrapped lines.
 */
import { plural } from '../../plain-reporter.js';
import { clip, wrap } from './format.js';
import type { LogLine } from './log-lines.js';
import type { RunView } from './run-view.js';
import { STEP_LABELS, STEP_ORDER, type StepView } from './steps.js';
import type { StoryRow } from './stories.js';

/** Lines of a step's reason shown under it; the log has the whole text. */
const DETAIL_LINES = 3;

export interface StepLine extends LogLine {
  /** The step is under way: the line starts with the spinner. */
  spinning: boolean;
}

function stepLines(label: string, step: StepView, width: number): StepLine[] {
  const mark = step.status === 'done' ? '✓' : step.status === 'failed' ? '✗' : '';
  const style = step.status === 'done' ? 'good' : step.status === 'failed' ? 'bad' : 'accent';
  const [first = '', ...rest] = step.detail.trim().split('\n');
  const head = `${mark}${mark ? ' ' : ''}${label}${step.status === 'failed' ? ' failed' : ''}: ${first}`;
  const lines: StepLine[] = wrap(head, width - 2).map((text) => ({ text, style, spinning: false }));
  const more = rest.flatMap((line) => wrap(line.trim(), width - 4)).map((text) => `  ${text}`);
  for (const text of more) lines.push({ text, style: 'dim', spinning: false });
  const shown = lines.slice(0, DETAIL_LINES);
  if (step.url) shown.push({ text: `  ${clip(step.url, width - 2)}`, style: 'accent', spinning: false });
  const top = shown[0];
  if (top !== undefined && step.status === 'running') shown[0] = { ...top, spinning: true };
  return shown;
}

/** Push, pull request, merge and clean, in that order, as far as they have happened. */
export function completionSteps(run: RunView, width: number): StepLine[] {
  return STEP_ORDER.flatMap((name) => {
    const step = run.steps[name];
    return step === undefined ? [] : stepLines(STEP_LABELS[name], step, width);
  });
}

/**
 * `Total: 2/3 passed · 7 iterations · 3m 05s · $1.20`, whatever sessions the
 * run took. The time is the run's wall time, start to end, as the user waited
 * it (parallel stories overlap, gates and waits count); the stories' own
 * times only when the run's start is not known.
 */
export function totals(
  rows: readonly StoryRow[],
  run: RunView,
): { passed: number; text: string; timeMs: number } {
  const passed = rows.filter((r) => r.state === 'done').length;
  const iterations = plural(run.iteration, 'iteration');
  const timeMs =
    run.startedAtMs !== null && run.finishedAtMs !== null
      ? Math.max(0, run.finishedAtMs - run.startedAtMs)
      : rows.reduce((sum, r) => sum + r.durationMs, 0);
  return { passed, text: `${passed}/${rows.length} passed · ${iterations}`, timeMs };
}
