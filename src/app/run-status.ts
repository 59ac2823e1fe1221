/**
 * What `ralph status` shows of a PRD's run, read from its files: the live
 * attempt (the run state names it, the lock says whether that run is still
 * going), a parallel run's workers and verified stories, the questions, the
 * next story and the forecast. `src/cli/commands/status.ts` prints it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Forecast } from '../core/forecast.js';
import { storiesLeft } from '../core/forecast.js';
import { inFlightOf, runPhase } from '../core/run-phase.js';
import { selectNextStory } from '../core/select.js';
import type { Story } from '../core/types.js';
import { parallelActivity, type RunningStory, type VerifiedStory } from '../parallel/activity.js';
import { lastSession } from '../state/event-log.js';
import { runFiles } from '../state/layout.js';
import type { LockStatus } from '../state/lock.js';
import { runForecast } from '../state/run-forecast.js';
import type { CurrentAttempt, RunState } from '../state/run-state.js';
import type { TaskContext } from './task-context.js';

/** The attempt a live run is on: the run state names it, the lock says whether that run is still going. */
interface RunningAttempt extends CurrentAttempt {
  elapsedMs: number;
  pid: number;
}

export interface StatusQuestion {
  id: string;
  storyId?: string;
  question: string;
  askedAt: string;
  answer: { text: string; at: string } | null;
  /** For a question still open: the command that answers it. */
  command?: string;
}

interface StatusQuestions {
  all: StatusQuestion[];
  /** Each story's latest question. */
  latest: Map<string, StatusQuestion>;
  /** The stories that wait for an answer. */
  waiting: Set<string>;
}

interface RunStatus {
  run: RunState | null;
  running: RunningAttempt | null;
  /** A current attempt with no live run: the last run died mid-attempt; the next `ralph run` recovers it. */
  interrupted: CurrentAttempt | null;
  /** A live parallel run's attempts in flight. */
  workers: (RunningStory & { elapsedMs: number })[];
  /** Attempts in flight left by a parallel run that died. */
  cutShort: RunningStory[];
  verified: VerifiedStory[];
  /** The live run's sandbox, as its lock says. */
  sandbox: string | null;
  parked: Set<string>;
  questions: StatusQuestions;
  next: Story | null;
  done: number;
  forecast: Forecast | null;
  /** The run's phase in the page's words, with what a run that died had in flight and when. */
  phase: RunPhaseView;
}

type RunPhaseView = Awaited<ReturnType<typeof phaseOf>>;

export async function readRunStatus(
  ctx: Pick<TaskContext, 'root' | 'target' | 'prd'>,
  inGit: boolean,
  now = Date.now(),
): Promise<RunStatus> {
  const run = await runStateIn(ctx.target.runDir);
  const lock = await lockIn(ctx.target.runDir);
  const held = lock.kind === 'held';
  const running: RunningAttempt | null =
    run?.current && held && lock.info
      ? { ...run.current, elapsedMs: now - Date.parse(run.current.startedAt), pid: lock.info.pid }
      : null;
  const interrupted = running === null && !held ? (run?.current ?? null) : null;
  // A parallel run's attempts in flight: live while its lock is held, else left by a run that died.
  const activity = await parallelActivity(ctx.root, ctx.target.name, run, inGit);
  const workers = held
    ? activity.running.map((r) => ({ ...r, elapsedMs: now - Date.parse(r.startedAt) }))
    : [];
  const parked = new Set(Object.entries(run?.stories ?? {}).flatMap(([id, s]) => (s.parked ? [id] : [])));
  const questions = await questionsIn(ctx.target.runDir, ctx.target.name);
  const selection = selectNextStory(ctx.prd.stories, { parked, waiting: questions.waiting });
  const done = ctx.prd.stories.filter((s) => s.status === 'done').length;
  return {
    run,
    running,
    interrupted,
    workers,
    cutShort: held ? [] : activity.running,
    verified: activity.verified,
    sandbox: held ? (lock.info?.sandbox ?? null) : null,
    parked,
    questions,
    next: selection.kind === 'story' ? selection.story : null,
    done,
    forecast: runForecast(run, storiesLeft(ctx.prd.stories, {}, parked), Math.max(1, workers.length)),
    phase: await phaseOf(ctx.target.runDir, run, lock, done === ctx.prd.stories.length && done > 0),
  };
}

/** The run's questions: every one (with answers), each story's latest, and the stories that wait. */
async function questionsIn(runDir: string, run: string): Promise<StatusQuestions> {
  const none = { all: [], latest: new Map<string, StatusQuestion>(), waiting: new Set<string>() };
  if (!existsSync(join(runDir, 'questions.json'))) return none;
  const { listQuestions } = await import('../state/questions.js');
  const { answerCommand, waitingStories } = await import('../core/questions.js');
  const questions = await listQuestions(runDir);
  const all: StatusQuestion[] = questions.map((q) => ({
    id: q.id,
    ...(q.storyId !== undefined ? { storyId: q.storyId } : {}),
    question: q.question,
    askedAt: q.askedAt,
    answer: q.answer ?? null,
    ...(q.answer ? {} : { command: answerCommand(run, q.id) }),
  }));
  const latest = new Map<string, StatusQuestion>();
  for (const q of all) if (q.storyId !== undefined) latest.set(q.storyId, q);
  return { all, latest, waiting: waitingStories(questions) };
}

// The readers of the run state and the lock validate with zod, a large part of
// the command's start-up; a PRD that never ran has neither file to read.

async function runStateIn(runDir: string): Promise<RunState | null> {
  const file = join(runDir, 'state.json');
  if (!existsSync(file)) return null;
  return (await import('../state/run-state.js')).readRunState(file);
}

async function lockIn(runDir: string): Promise<LockStatus> {
  const file = join(runDir, 'lock');
  if (!existsSync(file)) return { kind: 'free' };
  return (await import('../state/lock.js')).inspectLock(file);
}

/** The run's phase in the page's words (core/run-phase.ts), with what a run that died had in flight and when. */
async function phaseOf(runDir: string, run: RunState | null, lock: LockStatus, allDone: boolean) {
  const session = await lastSession(runFiles(runDir).events);
  const inFlight = inFlightOf(run);
  const phase = runPhase({
    live: lock.kind === 'held',
    waiting: session.waiting,
    inFlight,
    sessionOpen: session.open,
    allDone,
    stopped: run?.stop !== undefined,
    invalid: false,
  });
  const stoppedAt = phase === 'stopped-unexpectedly' ? (session.lastAt ?? run?.updatedAt ?? null) : null;
  return { phase, inFlight: lock.kind === 'held' || stoppedAt !== null ? inFlight : [], stoppedAt };
}
