/**
 * A run as the page shows it, decided from what was read of its files:
 * each story's or step's state, the run's phase and one sentence on what it
 * is doing. Pure.
 */
import { inFlightOf, runPhase, stoppedUnexpectedly } from '../core/run-phase.js';
import type { Prd } from '../core/types.js';
import type { GoalRunSummary } from '../goal/goal-summary.js';
import type { LockStatus } from '../state/lock.js';
import type { ControlRequest } from '../state/run-control.js';
import type { RunState } from '../state/run-state.js';
import type { RunActivity } from './run-activity.js';
import type { ItemState, ItemView, QuestionView, RunPhase, RunView } from './view.js';

interface Shared {
  name: string;
  lock: LockStatus;
  activity: RunActivity;
  questions: QuestionView[];
  control: ControlRequest | null;
}

export interface PrdRead extends Shared {
  /** Null when the task file does not read; `error` says why. */
  prd: Prd | null;
  error: string | null;
  state: RunState | null;
}

export interface GoalRead extends Shared {
  summary: GoalRunSummary | null;
  error: string | null;
}

export function prdRunView(read: PrdRead): RunView {
  const live = liveOf(read.lock);
  const state = read.state;
  const working = new Set<string>();
  if (live && state?.current) working.add(state.current.storyId);
  if (live) for (const r of state?.running ?? []) working.add(r.storyId);
  const waiting = new Set(read.questions.flatMap((q) => (q.storyId === null ? [] : [q.storyId])));
  const items = (read.prd?.stories ?? []).map((s): ItemView => {
    const record = state?.stories[s.id];
    const itemState: ItemState =
      s.status === 'done'
        ? 'done'
        : working.has(s.id)
          ? 'running'
          : waiting.has(s.id)
            ? 'waiting'
            : record?.parked
              ? 'parked'
              : 'todo';
    return {
      id: s.id,
      title: s.title,
      state: itemState,
      attempts: record?.attempts ?? 0,
      durationMs: record?.durationMs ?? 0,
      costUsd: record?.costUsd ?? 0,
      reason: itemState === 'done' ? null : (record?.lastFailure?.reason ?? null),
      dependsOn: s.dependsOn ?? [],
    };
  });
  const done = items.filter((i) => i.state === 'done').length;
  const inFlight = inFlightOf(state);
  const phase = runPhase({
    live: live !== null,
    waiting: read.activity.waiting !== null,
    inFlight,
    sessionOpen: read.activity.sessionOpen === true,
    allDone: items.length > 0 && done === items.length,
    stopped: state?.stop !== undefined,
    invalid: read.prd === null,
  });
  const stoppedAt =
    phase === 'stopped-unexpectedly' ? (read.activity.lastAt ?? state?.updatedAt ?? null) : null;
  const standing = phase === 'stopped-unexpectedly' ? stoppedUnexpectedly(stoppedAt, inFlight) : null;
  return {
    name: read.name,
    kind: 'prd',
    title: read.prd?.project ?? read.name,
    phase,
    detail: detailOf(read, live, standing, state?.stop?.reason ?? null, {
      resume: `\`ralph run ${read.name}\``,
    }),
    inFlight: live !== null || phase === 'stopped-unexpectedly' ? inFlight : [],
    stoppedAt,
    done,
    total: items.length,
    iterations: state?.totals.iterations ?? 0,
    costUsd: state?.totals.costUsd ?? 0,
    live,
    control: controlOf(read, live),
    items,
    questions: read.questions,
    error: read.error,
  };
}

export function goalRunView(read: GoalRead): RunView {
  const live = liveOf(read.lock);
  const s = read.summary;
  const items = (s?.steps ?? []).map(
    (step): ItemView => ({
      id: step.id,
      title: step.prompt,
      state: step.state === 'in-progress' ? 'running' : step.state,
      attempts: step.iterations,
      durationMs: step.durationMs,
      costUsd: step.costUsd,
      reason: null,
      dependsOn: [],
    }),
  );
  const phase: RunPhase =
    s === null
      ? 'invalid'
      : live
        ? read.activity.waiting !== null
          ? 'waiting'
          : 'running'
        : s.state === 'interrupted'
          ? 'stopped-unexpectedly'
          : s.state;
  const stoppedAt = phase === 'stopped-unexpectedly' ? (read.activity.lastAt ?? null) : null;
  const humanNeeded = s?.humanNeeded ? `needs a person: ${s.humanNeeded.reason}` : null;
  return {
    name: read.name,
    kind: 'goal',
    title: s?.goal.trim().split('\n')[0] ?? read.name,
    phase,
    detail: detailOf(
      read,
      live,
      phase === 'stopped-unexpectedly' ? stoppedUnexpectedly(stoppedAt, []) : humanNeeded,
      s?.stop?.reason ?? null,
      { resume: 'the same `ralph goal` command' },
    ),
    inFlight: [],
    stoppedAt,
    done: s?.done ?? 0,
    total: s?.total ?? 0,
    iterations: s?.iterations ?? 0,
    costUsd: s?.costUsd ?? 0,
    live,
    control: controlOf(read, live),
    items,
    questions: read.questions,
    error: read.error,
  };
}

function liveOf(lock: LockStatus): RunView['live'] {
  return lock.kind === 'held' && lock.info !== null
    ? { pid: lock.info.pid, host: lock.info.host, since: lock.info.startedAt }
    : null;
}

/** A request sent to the live run: shown until the run has ended. */
function controlOf(read: Shared, live: RunView['live']): RunView['control'] {
  const c = read.control;
  if (c === null || live === null) return null;
  const forThisRun = c.run.pid === live.pid && c.run.host === live.host && c.run.startedAt === live.since;
  return forThisRun ? c.request : null;
}

/** An ISO time as a clock time a person reads (`03:04:05 UTC`), never the raw timestamp. */
function clockTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(11, 19)} UTC`;
}

function detailOf(
  read: Shared & { error: string | null },
  live: RunView['live'],
  standing: string | null,
  stopReason: string | null,
  how: { resume: string },
): string {
  if (read.error !== null) return read.error;
  const { waiting, iteration, finished } = read.activity;
  if (live !== null) {
    if (waiting !== null)
      return `waiting (${waiting.reason}): ${waiting.message}${waiting.until ? ` until ${clockTime(waiting.until)}` : ''}`;
    return iteration !== null
      ? `iteration ${iteration.number}: ${iteration.label}, since ${clockTime(iteration.startedAt)}`
      : `running (pid ${live.pid} on ${live.host})`;
  }
  if (standing !== null) return standing;
  if (finished !== null) {
    // Paused or stopped (from the page too) with work left: how it goes on.
    const left = finished.exitCode === 0 ? '' : `; ${how.resume} goes on from there`;
    return `${finished.message} (exit ${finished.exitCode})${left}`;
  }
  return stopReason !== null ? `stopped: ${stopReason}` : 'not run yet';
}
