import type { ModeSelection } from './goal-mode.js';
import type { GoalFeedback, GoalStep, IterationRecord } from './goal-types.js';
import { renderTemplate, type TemplateValue } from './prompt.js';

export interface GoalPromptInput {
  template: string;
  goal: string;
  successCriteria: readonly string[];
  iteration: number;
  selection: ModeSelection;
  steps: readonly GoalStep[];
  /** The run's history; the most recent entries are shown. */
  history: readonly IterationRecord[];
  feedback: GoalFeedback | null;
  /** Set when the run is resumed after an iteration asked for a person. */
  humanNeeded?: { reason: string; details: string; iteration: number; answer?: string };
  minIterations: number;
  /** The configured gate commands, shown so the agent runs the same ones. */
  checks: readonly string[];
  /** The goal file relative to the repository root, when the goal came from one. */
  goalFile?: string;
}

/** How many recent iterations and completed steps the prompt shows; older ones are counted. */
export const HISTORY_SHOWN = 8;
export const COMPLETED_SHOWN = 20;
const MAX_OUTPUT = 8000;

/** The names the goal prompt template can use. */
export function goalPromptValues(input: Omit<GoalPromptInput, 'template'>): Record<string, TemplateValue> {
  const { selection, feedback, humanNeeded } = input;
  const done = input.steps.filter((s) => s.status === 'completed');
  const pending = input.steps.filter((s) => s.status === 'pending');
  const shownDone = done.slice(-COMPLETED_SHOWN);
  const hiddenDone = done.length - shownDone.length;
  const output = feedback?.outputTail?.trimEnd() ?? '';
  return {
    goal: input.goal.trim(),
    successCriteria: input.successCriteria.map((c) => `- ${oneLine(c)}`).join('\n'),
    iteration: String(input.iteration),
    mode: selection.mode,
    'mode.planning': selection.mode === 'planning',
    'mode.executing': selection.mode === 'executing',
    'mode.reflecting': selection.mode === 'reflecting',
    'step.id': selection.mode === 'executing' ? selection.step.id : '',
    'step.prompt': selection.mode === 'executing' ? selection.step.prompt.trim() : '',
    idleIterations: selection.mode === 'reflecting' ? String(selection.idleIterations) : '',
    'steps.any': input.steps.length > 0,
    'steps.completed': [
      ...(hiddenDone > 0 ? [`- (${hiddenDone} earlier steps done)`] : []),
      ...shownDone.map((s) => `- [x] ${s.id}: ${oneLine(s.prompt)}`),
    ].join('\n'),
    'steps.pending': pending.map((s) => `- [ ] ${s.id}: ${oneLine(s.prompt)}`).join('\n'),
    history: input.history.slice(-HISTORY_SHOWN).map(historyLine).join('\n'),
    feedback: feedback !== null,
    'feedback.message': feedback?.message.trim() ?? '',
    'feedback.output': output === '' ? '' : fenced(output.slice(-MAX_OUTPUT)),
    humanNeeded: humanNeeded !== undefined,
    'humanNeeded.iteration': humanNeeded ? String(humanNeeded.iteration) : '',
    'humanNeeded.reason': humanNeeded?.reason.trim() ?? '',
    'humanNeeded.details': humanNeeded?.details.trim() ?? '',
    'humanNeeded.answer': humanNeeded?.answer?.trim() ?? '',
    minIterations: input.minIterations > 1 ? String(input.minIterations) : '',
    checks: input.checks.map((c) => `- \`${c}\``).join('\n'),
    goalFile: input.goalFile ?? '',
  };
}

/** The prompt of one goal iteration. Throws `TemplateError` for a broken template. */
export function buildGoalPrompt(input: GoalPromptInput): string {
  return `${renderTemplate(input.template, goalPromptValues(input)).trimEnd()}\n`;
}

function historyLine(record: IterationRecord): string {
  const what = record.stepId ? `${record.mode} ${record.stepId}` : record.mode;
  return `- ${record.iteration} (${what}, ${record.outcome}): ${oneLine(record.summary)}`;
}

/** Step texts and summaries are shown as list items: one line each, shortened. */
function oneLine(text: string, max = 500): string {
  const flat = text.trim().replace(/\s*\n\s*/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Wraps text in a code fence longer than any backtick run inside it. */
function fenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${text}\n${fence}`;
}
