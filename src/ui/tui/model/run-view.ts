/**
 * One PRD's loop as the TUI shows it, folded from the session's events.
 * Pure: the time of each event is passed in, never read.
 */
import type { RetryEvent } from '../../../agents/agent-event.js';
import type { GoalMode } from '../../../core/goal-types.js';
import type { GoalStopReason, StopReason } from '../../../events/run-event.js';
import { describeRetry } from '../../plain-reporter.js';
import type { HookTaskLine, PrdSummary, SessionEvent, StoryQuestion, StoryState } from '../session.js';
import { attemptOf, isGoalFlavoured } from './goal-event.js';
import { reduceGoalEvent, withHookTask } from './goal-run-view.js';
import { type Lanes, reduceLanes } from './lanes.js';
import { emptyLog, type LogState, logEvent, note } from './log-cards.js';
import { allDone } from './status.js';
import { type StepName, type Steps, type StepView, stepOf } from './steps.js';

/** `paused`: the last run was stopped by the user (p, x) and resumes with s. */
export type RunPhase = 'ready' | 'starting' | 'running' | 'paused' | 'finished';

export interface StoryRunView {
  attempts: number;
  costUsd: number;
  durationMs: number;
  lastFailure?: string;
  /** What this run's events say about the story; the task file's status otherwise. */
  state?: StoryState;
  /** A question its agent asked in this run. */
  question?: StoryQuestion;
  /** The answer the run took in for its question (asked in this run or before). */
  answered?: string;
}

export interface RunOutcome {
  exitCode: number;
  reason: StopReason | GoalStopReason;
  message: string;
  parked: readonly string[];
}

export interface CurrentAttempt {
  storyId: string;
  title: string;
  attempt: number;
  maxAttempts: number;
  startedAtMs: number;
  /** When the agent last said anything: a quiet agent is shown as silent. */
  heardAtMs: number;
  /** The agent process is running (not yet exited: the gates come after). */
  agentRunning: boolean;
  /** The agent CLI's latest retry of its API request in this attempt. */
  retry: RetryEvent | null;
}

export interface RunView {
  phase: RunPhase;
  /** A pause (finish the iteration) or an immediate stop was asked for. */
  stopping: 'none' | 'pause' | 'stop';
  /** How the last session was interrupted: paused after its iteration (`p`), or stopped at once (`x`). */
  interruption: 'pause' | 'stop' | null;
  /** The loop's work is done (the goal was reached): it is only finishing (hooks, push, pull request). */
  winding: boolean;
  /** The iteration limit of the running session, or of the next one. */
  maxIterations: number;
  /** Iterations of the running session that count toward its limit, the one in flight included. */
  counted: number;
  /** The run state's iteration number: the latest iteration, over every session of the run. */
  iteration: number;
  startedAtMs: number | null;
  finishedAtMs: number | null;
  agent: string;
  /** The sandbox the agent runs in (`bwrap`, `sandbox-exec`), shown as 🔒; null when none. */
  sandbox: string | null;
  /** Spend of earlier runs plus this run's. */
  costUsd: number;
  current: CurrentAttempt | null;
  stories: Readonly<Record<string, StoryRunView>>;
  /** The latest thing the agent or the loop did, for the one-line activity bar. */
  activity: string;
  outcome: RunOutcome | null;
  /** Push and pull request after the run; merge and clean asked for on the completion screen. */
  steps: Steps;
  /** Why the last start failed, shown until the next start. */
  error: string | null;
  log: LogState;
  /** A goal run's mode: of the iteration running, else of the last one; null for a PRD's loop. */
  mode: GoalMode | null;
  /** The latest per-iteration hook tasks, oldest first. */
  hooks: readonly HookTaskLine[];
  /** A parallel run's workers and merge queue; null for a sequential run. */
  lanes: Lanes | null;
  /** The last iteration number the running session may reach, as the runner said; null before it did. */
  last: number | null;
  /** The run waits on the world outside (an outage, a quota): until when, and why. */
  waiting: { reason: string; message: string; untilMs: number } | null;
  /** The agent cannot authenticate or start: the sentence, until a check shows it fixed (`s` is not offered). */
  unusable: { agent: string; message: string; fix: string } | null;
}

export function initialRunView(summary: PrdSummary, logCapacity?: number): RunView {
  return {
    phase: 'ready',
    stopping: 'none',
    interruption: null,
    winding: false,
    maxIterations: summary.maxIterations,
    counted: 0,
    iteration: summary.iteration,
    startedAtMs: null,
    finishedAtMs: null,
    agent: summary.agent,
    sandbox: summary.sandbox ?? null,
    costUsd: summary.costUsd,
    current: null,
    stories: {},
    activity: '',
    outcome: null,
    steps: {},
    error: null,
    log: emptyLog(logCapacity),
    mode: summary.goal?.mode ?? null,
    hooks: summary.goal?.hookTasks ?? [],
    lanes: null,
    last: null,
    waiting: null,
    unusable: null,
  };
}

/** The last iteration the limit allows: what the header shows after the slash. */
export const lastIteration = (run: RunView): number =>
  run.last ?? run.iteration + Math.max(0, run.maxIterations - run.counted);

/** A new limit for this session (`+`/`-`, or the engine's word): the last iteration moves with it. */
export const withLimit = (run: RunView, maxIterations: number): RunView => ({
  ...run,
  maxIterations,
  last: run.last === null ? null : run.last + (maxIterations - run.maxIterations),
});

/**
 * Log lines said in the TUI's own terms rather than the plain reporter's:
 * iteration numbers count on over every session of the run, `p` pauses and
 * `s` resumes (the keys of a headless run are Ctrl-C's).
 */
function tuiNote(run: RunView, event: SessionEvent): LogState | null {
  switch (event.type) {
    case 'max-iterations-changed': {
      const last = lastIteration(withLimit(run, event.maxIterations));
      return note(
        run.log,
        'info',
        `iteration limit now ${event.maxIterations} this session: up to iteration ${last}`,
      );
    }
    case 'stop-requested':
      return note(
        run.log,
        'warn',
        event.how === 'graceful'
          ? 'pausing after this iteration (x stops now)'
          : 'stopping now: killing the agent',
      );
    case 'run-finished': {
      if (event.reason !== 'interrupted') return null;
      const how = run.stopping === 'pause' ? `paused after iteration ${run.iteration}` : event.message;
      return note(run.log, 'warn', `${how} — ${event.passed}/${event.total} passed; s resumes`);
    }
    default:
      return null;
  }
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
  if (id === '') return run;
  const before = run.stories[id] ?? { attempts: 0, costUsd: 0, durationMs: 0 };
  return { ...run, stories: { ...run.stories, [id]: change(before) } };
}

/** Clears the in-progress marks this run set: after a run, the task file says where each story is. */
export function clearInProgress(
  stories: Readonly<Record<string, StoryRunView>>,
): Record<string, StoryRunView> {
  const out: Record<string, StoryRunView> = {};
  for (const [id, s] of Object.entries(stories)) {
    if (s.state === 'in-progress') {
      const { state: _dropped, ...rest } = s;
      out[id] = rest;
    } else out[id] = s;
  }
  return out;
}

export function withStep(run: RunView, name: StepName, step: StepView): RunView {
  return { ...run, steps: { ...run.steps, [name]: step } };
}

/** The summary was read again: while no loop runs, the header shows what the next run would do. */
export function reloadedRun(run: RunView, summary: PrdSummary): RunView {
  if (isActive(run)) return run;
  // Complete: there is no next run to show; the header keeps the figures of the run that got there.
  if (run.phase === 'finished' && allDone(summary)) return run;
  return {
    ...run,
    maxIterations: summary.maxIterations,
    counted: 0,
    // The next session's last iteration is the next run's to say; until then, from the summary.
    last: null,
    iteration: Math.max(run.iteration, summary.iteration),
    sandbox: summary.sandbox ?? null,
  };
}

export function reduceRun(run: RunView, summary: PrdSummary, event: SessionEvent, nowMs: number): RunView {
  if (isGoalFlavoured(event)) return reduceGoalEvent(run, summary, event, nowMs);
  const log = tuiNote(run, event) ?? logEvent(run.log, event);
  const next = { ...run, log, lanes: reduceLanes(run.lanes, event, nowMs) };
  const step = stepOf(event);
  if (step !== null) return withStep(next, step.name, step.step);
  switch (event.type) {
    case 'run-started':
      return startRun(next, summary, nowMs, {
        maxIterations: event.maxIterations,
        iteration: Math.max(run.iteration, summary.iteration),
        agent: event.agent,
        sandbox: event.sandbox ?? null,
        activity: `${event.resumed ? 'resuming' : 'starting'}: ${event.remaining} stor${event.remaining === 1 ? 'y' : 'ies'} left`,
      });
    case 'iteration-started': {
      const { storyId, title, attempt, maxAttempts } = attemptOf(event);
      // In a parallel run other stories are in progress too.
      const stories = event.worker === undefined ? clearInProgress(next.stories) : next.stories;
      const started = patchStory({ ...next, stories }, storyId, (s) => ({
        ...s,
        attempts: attempt,
        state: 'in-progress',
      }));
      return {
        ...started,
        phase: 'running',
        iteration: event.iteration,
        counted: run.counted + 1,
        last: event.lastIteration ?? null,
        waiting: null,
        current: {
          storyId,
          title,
          attempt,
          maxAttempts,
          startedAtMs: nowMs,
          heardAtMs: nowMs,
          agentRunning: true,
          retry: null,
        },
        activity: `working on ${storyId} ${title} (attempt ${attempt}/${maxAttempts})`,
      };
    }
    case 'agent-event':
      return agentActivity(next, event.event, nowMs);
    case 'agent-exited': {
      const current = run.current;
      if (current === null) return next;
      // A parallel run's agents exit in any order: the event says whose it was.
      const storyId = event.storyId ?? current.storyId;
      const agentRunning = storyId === current.storyId ? false : current.agentRunning;
      // The story's time grows when the attempt counts (attempt-failed, story-passed), not here.
      return { ...next, current: { ...current, agentRunning } };
    }
    case 'usage':
      // A goal iteration's spend is its step's.
      return patchStory(
        { ...next, costUsd: run.costUsd + event.costUsd },
        event.storyId ?? run.current?.storyId ?? '',
        (s) => ({
          ...s,
          costUsd: s.costUsd + event.costUsd,
        }),
      );
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
        ...patchStory(next, event.storyId ?? '', (s) => ({
          ...s,
          lastFailure: event.reason,
          durationMs: s.durationMs + (event.durationMs ?? 0),
        })),
        activity: `✗ ${event.storyId} attempt ${event.attempt} failed: ${firstLine(event.reason)}`,
      };
    case 'story-parked':
      return patchStory(next, event.storyId, (s) => ({ ...s, state: 'parked', lastFailure: event.reason }));
    case 'question-asked':
      return {
        ...patchStory(next, event.storyId ?? '', ({ answered: _earlier, ...s }) => ({
          ...s,
          state: 'waiting',
          question: { id: event.questionId, text: event.question },
        })),
        activity: `? ${event.storyId ?? 'the run'} asks: ${firstLine(event.question)}`,
      };
    case 'question-answered':
      return patchStory(next, event.storyId ?? '', (s) => ({ ...s, state: 'todo', answered: event.answer }));
    case 'rate-limited':
      // The engine does not count a rate-limited attempt against the limit.
      return {
        ...next,
        counted: Math.max(0, run.counted - 1),
        activity: `rate limited: waiting ${Math.round(event.waitMs / 1000)}s`,
      };
    case 'agent-switched':
      return { ...next, counted: Math.max(0, run.counted - 1) };
    case 'max-iterations-changed':
      return withLimit(next, event.maxIterations);
    case 'waiting': {
      const untilMs = event.until ? Date.parse(event.until) : nowMs + (event.waitMs ?? 0);
      const waiting = { reason: event.reason, message: event.message, untilMs };
      return { ...givenBack(next, event.storyId), waiting, activity: event.message };
    }
    case 'agent-unusable':
      return {
        ...givenBack(next, run.current?.storyId),
        unusable: { agent: event.agent, message: event.message, fix: event.fix },
      };
    case 'hook-started':
    case 'hook-finished':
    case 'hook-committed':
    case 'hook-not-landed':
      return { ...next, hooks: withHookTask(run.hooks, event) };
    case 'stop-requested':
      return { ...next, stopping: event.how === 'graceful' ? 'pause' : 'stop' };
    case 'run-finished':
      return endRun({ ...next, waiting: null }, run, nowMs, { ...event, parked: event.parked });
    default:
      return next;
  }
}

/** The world outside ended the attempt: it is not counted, so the story shows the attempts before it. */
function givenBack(run: RunView, storyId: string | undefined): RunView {
  const current = run.current;
  if (current === null || storyId === undefined || current.storyId !== storyId) return run;
  return patchStory(run, storyId, (s) => ({ ...s, attempts: Math.max(0, current.attempt - 1) }));
}

/** A loop started (or resumed): a fresh session's figures, the stories as the summary has them. */
export function startRun(
  next: RunView,
  summary: PrdSummary,
  nowMs: number,
  start: Pick<RunView, 'maxIterations' | 'iteration' | 'agent' | 'sandbox' | 'activity'>,
): RunView {
  return {
    ...next,
    ...start,
    phase: 'running',
    stopping: 'none',
    interruption: null,
    winding: false,
    counted: 0,
    last: null,
    waiting: null,
    startedAtMs: nowMs,
    finishedAtMs: null,
    costUsd: summary.costUsd,
    current: null,
    stories: storiesFrom(summary),
    outcome: null,
    steps: {},
    error: null,
  };
}

/** A loop ended: stopped by the user (the run is not over, `s` takes it on), or finished. */
export function endRun(
  next: RunView,
  run: RunView,
  nowMs: number,
  end: RunOutcome & { costUsd: number },
): RunView {
  const interrupted = end.reason === 'interrupted';
  return {
    ...next,
    phase: interrupted ? 'paused' : 'finished',
    stopping: 'none',
    // Only `p` lets the iteration finish; `x`, a second Ctrl-C or the terminal closing stop it.
    interruption: interrupted ? (run.stopping === 'pause' ? 'pause' : 'stop') : null,
    winding: false,
    finishedAtMs: nowMs,
    current: null,
    costUsd: end.costUsd,
    stories: clearInProgress(next.stories),
    activity:
      end.reason === 'interrupted' && run.stopping === 'pause'
        ? 'paused after the iteration; s resumes'
        : end.message,
    outcome: { exitCode: end.exitCode, reason: end.reason, message: end.message, parked: end.parked },
  };
}

function agentActivity(
  run: RunView,
  e: Extract<SessionEvent, { type: 'agent-event' }>['event'],
  nowMs: number,
) {
  const current = run.current === null ? null : { ...run.current, heardAtMs: nowMs };
  const heard = { ...run, current };
  switch (e.type) {
    case 'tool-started':
      return { ...heard, activity: `⚙ ${e.name} ${e.summary}`.trim() };
    case 'assistant-text':
      return e.text.trim() === '' ? heard : { ...heard, activity: firstLine(e.text) };
    case 'error':
      return { ...heard, activity: `agent error: ${firstLine(e.message)}` };
    case 'retry':
      return {
        ...heard,
        current: current === null ? null : { ...current, retry: e },
        activity: describeRetry(e),
      };
    default:
      return heard;
  }
}

/** A loop is in flight (or about to be): quitting must stop it first. */
export const isActive = (run: RunView): boolean => run.phase === 'running' || run.phase === 'starting';
