import { formatUsd as money } from '../core/money.js';
import { describeHookEvent } from '../loop/hooks-text.js';
import { describeEvent } from '../ui/plain-reporter.js';
import type { GoalEvent } from './events.js';

export interface GoalReporterOptions {
  /** Also show the agent's own text and tool output (`-v`). */
  verbose: boolean;
  write: (line: string) => void;
}

const clock = (date = new Date()): string => date.toISOString().slice(11, 19);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/** Turns the goal loop's events into timestamped human-readable lines. */
export function createGoalReporter(options: GoalReporterOptions): (event: GoalEvent) => void {
  return (event) => {
    const text = describeGoalEvent(event, options.verbose);
    if (text === null) return;
    const [first = '', ...rest] = text.split('\n');
    options.write(`[${clock()}] ${first}`);
    for (const line of rest) options.write(line);
  };
}

export function describeGoalEvent(event: GoalEvent, verbose: boolean): string | null {
  switch (event.type) {
    case 'goal-started':
      return `${event.resumed ? 'resuming' : 'starting'} goal ${event.name}: ${firstLine(event.goal)} (agent ${event.agent}, ${event.steps.completed}/${event.steps.total} steps done, iterations ${event.iterationsBefore + 1}..${event.maxIterations}${event.minIterations > 1 ? `, at least ${event.minIterations}` : ''})`;
    case 'goal-recovered':
      return `recovered: the interrupted iteration ${event.iteration} was rolled back to ${event.to.slice(0, 7)}`;
    case 'goal-iteration-started':
      return `iteration ${event.iteration}/${event.maxIterations}: ${event.mode}${event.step ? ` ${event.step.id}: ${firstLine(event.step.prompt)}` : ''}`;
    case 'goal-agent-event':
      return describeEvent(
        { type: 'agent-event', iteration: event.iteration, storyId: '', event: event.event },
        verbose,
      );
    case 'goal-usage':
      return verbose
        ? `  usage: ${event.inputTokens} in, ${event.outputTokens} out, ${money(event.costUsd)}`
        : null;
    case 'goal-result':
      return [
        `${event.status === 'needs-human' ? '!' : '✓'} iteration ${event.iteration} (${event.status}): ${firstLine(event.summary)}`,
        ...event.completedStepIds.map((id) => `    done ${id}`),
        ...event.addedSteps.map((s) => `    + ${s.id}: ${firstLine(s.prompt)}`),
        ...(event.commits.length > 0
          ? [`    commits: ${event.commits.map((c) => c.sha.slice(0, 7)).join(', ')}`]
          : []),
        `    steps: ${event.steps.completed}/${event.steps.total} done`,
      ].join('\n');
    case 'goal-warning':
      return `  warning: ${event.message}`;
    case 'goal-complete-refused':
      return `  ${firstLine(event.reason)}`;
    case 'goal-iteration-failed':
      return `✗ iteration ${event.iteration} failed (${event.kind}): ${firstLine(event.reason)} [${event.consecutive}/${event.maxConsecutive} in a row]`;
    case 'goal-rolled-back':
      return `  rolled back to ${event.to.slice(0, 7)}${event.rescueRef ? ` (kept at ${event.rescueRef})` : ''}`;
    case 'goal-rate-limited':
      return `  rate limited: ${firstLine(event.message)}; waiting ${seconds(event.waitMs)}${event.resetsAt ? ` (resets ${event.resetsAt})` : ''}`;
    case 'goal-finished':
      return finishedLines(event);
    case 'hook-started':
    case 'hook-finished':
    case 'hook-committed':
    case 'hook-not-landed':
      return describeHookEvent(event, verbose);
    default:
      return describeEvent(event, verbose);
  }
}

function finishedLines(event: Extract<GoalEvent, { type: 'goal-finished' }>): string {
  const lines = [
    `${event.message} — ${event.steps.completed}/${event.steps.total} steps done, ${event.iterations} iteration${event.iterations === 1 ? '' : 's'}, ${money(event.costUsd)} (exit ${event.exitCode})`,
  ];
  if (event.finalSummary) lines.push(...indent(event.finalSummary));
  if (event.humanNeeded) {
    lines.push(`  needs a human: ${event.humanNeeded.reason}`);
    if (event.humanNeeded.details) lines.push(...indent(event.humanNeeded.details));
    lines.push('  resolve it, then run the same command again to resume');
  }
  lines.push(`  progress: ${event.progressFile}`);
  return lines.join('\n');
}

const firstLine = (text: string): string => truncate(text.trim().split('\n')[0] ?? '', 300);
const truncate = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);
const indent = (text: string): string[] =>
  text
    .trim()
    .split('\n')
    .map((l) => `    ${l}`);
