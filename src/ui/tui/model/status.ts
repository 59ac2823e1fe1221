/** The one-word state of a PRD's loop, for the header, the tabs and the picker. */
import type { AgentProblem, PrdSummary } from '../session.js';
import type { LineStyle } from './log-lines.js';
import type { RunView } from './run-view.js';

export interface Badge {
  label: string;
  style: LineStyle;
}

/**
 * Every story of the task file passed: a PRD finished in an earlier run opens
 * as complete. A goal run is complete when its goal is, whatever its steps.
 */
export const allDone = (summary: PrdSummary): boolean =>
  summary.goal !== undefined
    ? summary.goal.state === 'complete'
    : summary.stories.length > 0 && summary.stories.every((s) => s.status === 'done');

/** How a tab speaks of what its list holds, and of being finished. */
export function unitWords(summary: PrdSummary): { unit: string; units: string; complete: string } {
  return summary.goal !== undefined
    ? { unit: 'Step', units: 'steps', complete: 'goal reached' }
    : { unit: 'Story', units: 'stories', complete: 'every story passed' };
}

export function statusBadge(
  run: RunView,
  summary: PrdSummary,
  agentProblem: AgentProblem | null = null,
): Badge {
  switch (run.phase) {
    case 'ready':
      if (summary.running) return { label: 'Running in another process', style: 'warn' };
      if (run.error !== null) return { label: `Could not start: ${run.error}`, style: 'bad' };
      if (allDone(summary)) return { label: `Complete — ${unitWords(summary).complete}`, style: 'good' };
      if (agentProblem !== null) return { label: `Cannot start: ${agentProblem.message}`, style: 'bad' };
      return { label: 'Ready — press s to start', style: 'accent' };
    case 'starting':
      return { label: 'Starting…', style: 'accent' };
    case 'running':
      if (run.stopping === 'pause') return { label: 'Pausing after this iteration', style: 'warn' };
      if (run.stopping === 'stop') return { label: 'Stopping', style: 'warn' };
      return { label: 'Running', style: 'good' };
    case 'paused':
      return run.interruption === 'stop'
        ? { label: 'Stopped — press s to resume', style: 'warn' }
        : { label: 'Paused — press s to resume', style: 'warn' };
    case 'finished': {
      const outcome = run.outcome;
      if (outcome === null || outcome.exitCode === 0 || allDone(summary))
        return { label: 'Complete', style: 'good' };
      return { label: `Stopped: ${outcome.message}`, style: 'bad' };
    }
  }
}

/** A one-character marker for tabs and the picker. */
export function phaseMark(run: RunView, summary: PrdSummary): string {
  if (run.phase === 'running' || run.phase === 'starting') return '●';
  if (run.phase === 'paused') return '‖';
  if (allDone(summary)) return '✓';
  if (run.phase === 'finished') return '■';
  return '○';
}
