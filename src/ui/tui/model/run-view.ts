/**
 * One PRD's loop as the TUI shows it, folded from the session's events.
 * Pure: the time of each event is passed in, never read.
 */
import type { StopReason } from '../../../loop/events.js';
import type { OnCompleteEvent, PrdSummary, SessionEvent, StoryState } from '../session.js';
import { emptyLog, type LogState, logEvent } from './log-cards.js';

export type RunPhase = 'ready' | 'starting' | 'running' | 'finished';

export interface StoryRunView {
  attempts: number;
  costUsd: number;
  durationMs: number;
  lastFailure?: string;
  /** What this run's events say about the story; the task file's status otherwise. */
  state?: StoryState;
}

export interface RunOutcome {
  exitCode: number;
  reason: StopReason;
  message: string;
  passed: number;
  total: number;
  parked: readonly string[];
  costUsd: number;
  iterations: number;
}

export interface StepView {
  status: OnCompleteEvent['status'];
  detail?: string;
  url?: string;
}

export interface RunView {
  phase: RunPhase;
  /** A pause (finish the iteration) or an immediate stop was asked for. */
  stopping: 'none' | 'pause' | 'stop';
  maxIterations: number;
  /** Iterations this run has used, counted like the engine counts them. */
  iteration: number;
  /** The run state's iteration number just before this run's first one. */
  iterationBase: number | null;
  startedAtMs: number | null;
  finishedAtMs: number | null;
  agent: string;
  /** Spend of earlier runs plus this run's. */
  costUsd: number;
  current: { storyId: string; title: string; attempt: number; maxAttempts: number } | null;
  stories: Readonly<Record<string, StoryRunView>>;
  /** The latest thing the agent or the loop did, for the one-line activity bar. */
  activity: string;
  outcome: RunOutcome | null;
  onComplete: Readonly<Partial<Record<OnCompleteEvent['step'], StepView>>>;
  /** Why the last start failed, shown until the next start. */
  error: string | null;
  log: LogState;
}

export function initialRunView(summary: PrdSummary, logCapacity?: number): RunView {
  return {
    phase: 'ready',
    stopping: 'none',
    maxIterations: summary.maxIterations,
    iteration: 0,
    iterationBase: null,
    startedAtMs: null,
    finishedAtMs: null,
    agent: summary.agent,
    costUsd: summary.costUsd,
    current: null,
    stories: {},
    activity: '',
    outcome: null,
    onComplete: {},
    error: null,
    log: emptyLog(logCapacity),
  };
}

/** The stories' run figures as the summary has them: the starting point of a run. */
function storiesFrom(summary: PrdSummary): Record<string, StoryRunView> {
  const out: Record<string, StoryRunView> = {};
  for (const s of summary.stories) {
    out[s.id] = {
      attempts: s.attempts,
      costUsd: s.costUsd,
      durationMs: s.durationMs,
      ...(s.lastFailure !== undefined ? { lastFailure: s.lastFailure } : {}),
    };
  }
  return out;
}

const firstLine = (text: string): string => (text.trim().split('\n')[0] ?? '').trim();

function patchStory(run: RunView, id: string, change: (s: StoryRunView) => StoryRunView): RunView {
  const before = run.stories[id] ?? { attempts: 0, costUsd: 0, durationMs: 0 };
  return { ...run, stories: { ...run.stories, [id]: change(before) } };
}

/** Clears the in-progress marks this run set: after a run, the task file says where each story is. */
function clearInProgress(stories: Readonly<Record<string, StoryRunView>>): Record<string, StoryRunView> {
  const out: Record<string, StoryRunView> = {};
  for (const [id, s] of Object.entries(stories)) {
    if (s.state === 'in-progress') {
      const { state: _dropped, ...rest } = s;
      out[id] = rest;
    } else out[id] = s;
  }
  return out;
}

export function reduceRun(run: RunView, summary: PrdSummary, event: SessionEvent, nowMs: number): RunView {
  const log = logEvent(run.log, event);
  const next = { ...run, log };
  switch (event.type) {
    case 'run-started':
      return {
        ...next,
        phase: 'running',
        stopping: 'none',
        maxIterations: event.maxIterations,
        iteration: 0,
        iterationBase: null,
        startedAtMs: nowMs,
        finishedAtMs: null,
        agent: event.agent,
        costUsd: summary.costUsd,
        current: null,
        stories: storiesFrom(summary),
        activity: `${event.resumed ? 'resuming' : 'starting'}: ${event.remaining} stories left`,
        outcome: null,
        onComplete: {},
        error: null,
      };
    case 'iteration-started': {
      const base = run.iterationBase ?? event.iteration - 1;
      const started = patchStory({ ...next, stories: clearInProgress(next.stories) }, event.storyId, (s) => ({
        ...s,
        attempts: event.attempt,
        state: 'in-progress',
      }));
      return {
        ...started,
        phase: 'running',
        iterationBase: base,
        iteration: Math.max(run.iteration, event.iteration - base),
        current: {
          storyId: event.storyId,
          title: event.title,
          attempt: event.attempt,
          maxAttempts: event.maxAttempts,
        },
        activity: `working on ${event.storyId} ${event.title} (attempt ${event.attempt}/${event.maxAttempts})`,
      };
    }
    case 'agent-event': {
      const e = event.event;
      if (e.type === 'tool-started') return { ...next, activity: `⚙ ${e.name} ${e.summary}`.trim() };
      if (e.type === 'assistant-text' && e.text.trim() !== '')
        return { ...next, activity: firstLine(e.text) };
      if (e.type === 'error') return { ...next, activity: `agent error: ${firstLine(e.message)}` };
      return next;
    }
    case 'agent-exited': {
      const id = run.current?.storyId;
      return id === undefined
        ? next
        : patchStory(next, id, (s) => ({ ...s, durationMs: s.durationMs + event.durationMs }));
    }
    case 'usage':
      return patchStory({ ...next, costUsd: run.costUsd + event.costUsd }, event.storyId, (s) => ({
        ...s,
        costUsd: s.costUsd + event.costUsd,
      }));
    case 'check-started':
      return { ...next, activity: `check: ${event.command}` };
    case 'story-passed':
      return {
        ...patchStory(next, event.storyId, (s) => ({
          ...s,
          attempts: event.attempt,
          costUsd: event.costUsd,
          durationMs: event.durationMs,
          state: 'done',
        })),
        activity: `✓ ${event.storyId} passed`,
      };
    case 'attempt-failed':
      return {
        ...patchStory(next, event.storyId, (s) => ({ ...s, lastFailure: event.reason })),
        activity: `✗ ${event.storyId} attempt ${event.attempt} failed: ${firstLine(event.reason)}`,
      };
    case 'story-parked':
      return patchStory(next, event.storyId, (s) => ({ ...s, state: 'parked', lastFailure: event.reason }));
    case 'rate-limited':
      return { ...next, activity: `rate limited: waiting ${Math.round(event.waitMs / 1000)}s` };
    case 'stop-requested':
      return { ...next, stopping: event.how === 'graceful' ? 'pause' : 'stop' };
    case 'run-finished':
      return {
        ...next,
        phase: 'finished',
        stopping: 'none',
        finishedAtMs: nowMs,
        current: null,
        costUsd: event.costUsd,
        stories: clearInProgress(next.stories),
        activity: event.message,
        outcome: {
          exitCode: event.exitCode,
          reason: event.reason,
          message: event.message,
          passed: event.passed,
          total: event.total,
          parked: event.parked,
          costUsd: event.costUsd,
          iterations: event.iterations,
        },
      };
    case 'on-complete':
      return {
        ...next,
        onComplete: {
          ...run.onComplete,
          [event.step]: {
            status: event.status,
            ...(event.detail !== undefined ? { detail: event.detail } : {}),
            ...(event.url !== undefined ? { url: event.url } : {}),
          },
        },
      };
    default:
      return next;
  }
}

/** A loop is in flight (or about to be): quitting must stop it first. */
export const isActive = (run: RunView): boolean => run.phase === 'running' || run.phase === 'starting';
