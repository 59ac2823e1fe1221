/** The one-word state of a PRD's loop, for the header, the tabs and the picker. */
import type { LineStyle } from './log-lines.js';
import type { RunView } from './run-view.js';

export interface Badge {
  label: string;
  style: LineStyle;
}

export function statusBadge(run: RunView, runningElsewhere = false): Badge {
  switch (run.phase) {
    case 'ready':
      if (runningElsewhere) return { label: 'Running in another process', style: 'warn' };
      return run.error === null
        ? { label: 'Ready — press s to start', style: 'accent' }
        : { label: `Could not start: ${run.error}`, style: 'bad' };
    case 'starting':
      return { label: 'Starting…', style: 'accent' };
    case 'running':
      if (run.stopping === 'pause') return { label: 'Pausing after this iteration', style: 'warn' };
      if (run.stopping === 'stop') return { label: 'Stopping', style: 'warn' };
      return { label: 'Running', style: 'good' };
    case 'finished': {
      const outcome = run.outcome;
      if (outcome === null) return { label: 'Stopped', style: 'warn' };
      if (outcome.exitCode === 0) return { label: 'Complete', style: 'good' };
      if (outcome.reason === 'interrupted') return { label: 'Stopped', style: 'warn' };
      return { label: `Stopped: ${outcome.reason}`, style: 'bad' };
    }
  }
}

/** A one-character marker for tabs and the picker. */
export function phaseMark(run: RunView): string {
  if (run.phase === 'running' || run.phase === 'starting') return '●';
  if (run.phase === 'finished') return run.outcome?.exitCode === 0 ? '✓' : '■';
  return '○';
}
