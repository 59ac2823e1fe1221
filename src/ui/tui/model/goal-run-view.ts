/**
 * A goal run as the TUI shows it, folded into the same run view as a PRD's
 * loop: its steps are the tab's list, the iteration's mode (planning,
 * executing, reflecting) goes to the header, hook tasks to the details.
 * What a goal iteration shares with a story attempt (the agent's stream,
 * its spend) is passed on as the story loop's own event. Pure.
 */

import type { HookEvent } from '../../../events/run-event.js';
import { describeEvent } from '../../plain-reporter.js';
import type { HookTaskLine, PrdSummary, SessionEvent } from '../session.js';
import { note, type Tone } from './log-cards.js';
import { endRun, type RunView, startRun } from './run-view.js';

/** The hook tasks the details panel keeps: enough for the last few iterations. */
const HOOK_LINES = 12;

/** A hook task started, ended, or had what it wrote committed (or not). */
export function withHookTask(lines: readonly HookTaskLine[], event: HookEvent): readonly HookTaskLine[] {
  const same = (l: HookTaskLine) => l.iteration === event.iteration && l.hookId === event.hookId;
  const index = lines.findLastIndex(same);
  const known = index >= 0 ? lines[index] : undefined;
  let line: HookTaskLine;
  switch (event.type) {
    case 'hook-started':
      line = {
        iteration: event.iteration,
        hookId: event.hookId,
        parallel: event.parallel,
        status: 'running',
      };
      return [...lines, line].slice(-HOOK_LINES);
    case 'hook-finished':
      line = {
        ...(known ?? { iteration: event.iteration, hookId: event.hookId, parallel: event.parallel }),
        status: event.status,
        ...(event.error !== undefined ? { detail: event.error } : {}),
      };
      break;
    case 'hook-committed':
      if (known === undefined) return lines;
      line = { ...known, detail: `committed ${event.commits.map((c) => c.sha.slice(0, 7)).join(', ')}` };
      break;
    case 'hook-not-landed':
      if (known === undefined) return lines;
      line = { ...known, detail: `not on the branch: ${event.reason}${event.ref ? ` (${event.ref})` : ''}` };
      break;
  }
  if (index < 0) return [...lines, line].slice(-HOOK_LINES);
  const next = lines.slice();
  next[index] = line;
  return next;
}

const firstLine = (text: string): string => (text.trim().split('\n')[0] ?? '').trim();

const TONE: Partial<Record<SessionEvent['type'], Tone>> = {
  'goal-result': 'good',
  'attempt-failed': 'bad',
  'goal-complete-refused': 'warn',
  'goal-warning': 'warn',
  'rolled-back': 'warn',
  recovered: 'warn',
};

/**
 * Folds one of a goal run's own events into the run view; what every run
 * says alike (the agent's stream, its spend, a rate limit) the story
 * runners' reducer folds, for the step in flight.
 */
export function reduceGoalEvent(
  run: RunView,
  summary: PrdSummary,
  event: SessionEvent,
  nowMs: number,
): RunView {
  const text = describeEvent(event, false);
  const next: RunView =
    text === null ? run : { ...run, log: note(run.log, TONE[event.type] ?? 'info', firstLine(text)) };
  switch (event.type) {
    case 'run-started': {
      const goal = event.goal;
      if (goal === undefined) return next;
      return startRun(next, summary, nowMs, {
        // The goal loop's limit is the last iteration it may start, over every session.
        maxIterations: Math.max(0, event.maxIterations - goal.iterationsBefore),
        iteration: goal.iterationsBefore,
        agent: event.agent,
        sandbox: event.sandbox ?? null,
        activity: `${event.resumed ? 'resuming' : 'starting'}: ${goal.steps.completed}/${goal.steps.total} steps done`,
      });
    }
    case 'iteration-started': {
      const mode = event.mode;
      if (mode === undefined) return next;
      const id = event.step?.id ?? mode;
      const title = event.step ? firstLine(event.step.prompt) : mode;
      const before = event.step ? next.stories[event.step.id] : undefined;
      const stories = event.step
        ? {
            ...next.stories,
            [event.step.id]: {
              ...(before ?? { attempts: 0, costUsd: 0, durationMs: 0 }),
              attempts: (before?.attempts ?? 0) + 1,
              state: 'in-progress' as const,
            },
          }
        : next.stories;
      return {
        ...next,
        phase: 'running',
        mode,
        iteration: event.iteration,
        counted: run.counted + 1,
        stories,
        current: {
          storyId: id,
          title,
          attempt: stories[id]?.attempts ?? 1,
          // A goal run has no per-step limit: failed iterations in a row stop it instead.
          maxAttempts: 0,
          startedAtMs: nowMs,
          heardAtMs: nowMs,
          agentRunning: true,
          retry: null,
        },
        activity: `${mode}${event.step ? ` ${event.step.id}: ${title}` : ''}`,
      };
    }
    case 'goal-result': {
      const stories = { ...next.stories };
      for (const id of event.completedStepIds) {
        stories[id] = { ...(stories[id] ?? { attempts: 0, costUsd: 0, durationMs: 0 }), state: 'done' };
      }
      if (event.status === 'goal-complete') {
        // Accepted unless a goal-complete-refused follows: the loop only finishes now.
        const activity = `✓ goal complete in iteration ${event.iteration}: ${firstLine(event.summary)} — finishing`;
        return { ...next, stories, winding: true, activity };
      }
      return { ...next, stories, activity: `✓ iteration ${event.iteration}: ${firstLine(event.summary)}` };
    }
    case 'goal-complete-refused':
      return { ...next, winding: false };
    case 'attempt-failed':
      return { ...next, activity: `✗ iteration ${event.iteration} failed: ${firstLine(event.reason)}` };
    case 'run-finished':
      return {
        ...endRun(next, run, nowMs, event),
        mode: event.reason === 'goal-complete' ? null : run.mode,
      };
    default:
      return next;
  }
}
