/**
 * What happens after the last story passed, as steps the completion screen
 * shows with their progress: push and pull request (engine events), merge and
 * clean (the user's keys).
 */
import type { RunEvent } from '../../../events/run-event.js';

export type StepName = 'push' | 'pull-request' | 'merge' | 'clean';

export interface StepView {
  status: 'running' | 'done' | 'failed';
  /** What it is doing, what it did, or why it failed (may span lines). */
  detail: string;
  url?: string;
}

export type Steps = Readonly<Partial<Record<StepName, StepView>>>;

/** The step a push / pull-request event moves, or null for any other event. */
export function stepOf(event: RunEvent): { name: StepName; step: StepView } | null {
  switch (event.type) {
    case 'push-started':
      return { name: 'push', step: { status: 'running', detail: `pushing ${event.branch}` } };
    case 'branch-pushed':
      return { name: 'push', step: { status: 'done', detail: `${event.branch} → ${event.remote}` } };
    case 'push-failed':
      return { name: 'push', step: { status: 'failed', detail: event.message } };
    case 'pr-started':
      return {
        name: 'pull-request',
        step: { status: 'running', detail: `opening ${event.branch} → ${event.base}` },
      };
    case 'pr-created':
      return {
        name: 'pull-request',
        step: { status: 'done', detail: event.existing ? 'already open' : 'opened', url: event.url },
      };
    case 'pr-failed':
      return { name: 'pull-request', step: { status: 'failed', detail: event.message } };
    default:
      return null;
  }
}

export const STEP_LABELS: Readonly<Record<StepName, string>> = {
  push: 'Push',
  'pull-request': 'Pull request',
  merge: 'Merge',
  clean: 'Clean',
};

export const STEP_ORDER: readonly StepName[] = ['push', 'pull-request', 'merge', 'clean'];
