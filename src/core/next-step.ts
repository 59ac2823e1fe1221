import { storyBudgetReason } from './budget.js';
import { ExitCode } from './errors.js';
import { type StartLimit, startLimit, whenIdle } from './parallel-rules.js';
import { readyStories } from './ready.js';
import { allDoneMessage } from './scope-summary.js';
import { remainingStories, type SelectionOptions } from './select.js';
import { stopMessages } from './stop-messages.js';
import type { AnyStopReason, StopReason } from './stop-reasons.js';
import type { Story } from './types.js';

/**
 * The decision core: what a run does next, as one pure answer every runner
 * carries out (sequential, the parallel scheduler and its worker lanes, the
 * goal loop, the role jobs). New kinds of work or waits (a review, a
 * subscription window, a race's resolution) are new members of these
 * unions, decided here; the runners only gain a case where they carry one out.
 */
export type NextStep<Reason extends AnyStopReason = AnyStopReason> =
  /** The run ends: why, its exit code, and the sentence a person reads. */
  | { kind: 'stop'; reason: Reason; exitCode: ExitCode; message: string }
  /** Nothing may start now: sit until what is named happens, then ask again. */
  | { kind: 'wait'; for: WaitFor }
  /** The story gets no further attempt in this run: record it parked, say why, ask again. */
  | { kind: 'park'; storyId: string; attempts: number; reason: string }
  /** Start one attempt: of which story (none for a goal iteration), in which role. */
  | { kind: 'attempt'; storyId?: string; role: AttemptRole };

type WaitFor =
  /** `--wait`: a person's answer to a question the run asked. */
  | 'answer'
  /** A rate limit or an outage holds every new start (being waited out, or handed to a fallback agent). */
  | 'hold'
  /** Attempts or landings in flight: the next to end may free a worker or a story. */
  | 'running';

/** What an attempt is for: a story's work, or one of goal mode's iteration kinds. */
type AttemptRole = 'story' | 'planning' | 'executing' | 'reflecting';

export type Interrupt = 'none' | 'graceful' | 'immediate';

export type Stop<Reason extends AnyStopReason = AnyStopReason> = Extract<NextStep<Reason>, { kind: 'stop' }>;

export const stop = <Reason extends AnyStopReason>(
  reason: Reason,
  exitCode: ExitCode,
  message: string,
): Stop<Reason> => ({
  kind: 'stop',
  reason,
  exitCode,
  message,
});

/** A story run's view when it picks: the task file, who is busy or waiting, the limits and the spend. */
export interface StoryRunView {
  /** The task file as it is now (on the PRD branch for a parallel run). */
  stories: readonly Story[];
  scope: Pick<SelectionOptions, 'onlyStoryId' | 'resumeFromId'>;
  parked: ReadonlySet<string>;
  /** Stories whose question waits for an answer. */
  asked: ReadonlySet<string>;
  /** Stories with an attempt in flight, verified work waiting to land, or held for another's landing. */
  busy: ReadonlySet<string>;
  /** Stories to start before any other (redone after losing a race to land). */
  first?: ReadonlySet<string>;
  /** Passed (landed) in this session, for the closing sentence. */
  passedThisRun: ReadonlySet<string>;
  /** How many may run at once (1 for the sequential runner) and how many run now. */
  workers: number;
  running: number;
  /** A landing in flight (the merge queue's turn), and verified work waiting for one (none after a second Ctrl-C). */
  landing: number;
  toLand: number;
  interrupt: Interrupt;
  /** A rate limit or outage holds new starts. */
  holding: boolean;
  /** An outside stop (an unusable agent, an outage past --outage-wait) waits for the running work to end. */
  stopFor?: Stop<StopReason>;
  waitForAnswers: boolean;
  limits: { maxIterations: number; maxCostUsd?: number; maxCostPerStoryUsd?: number };
  /** Counted attempts started this session (running ones too), and the run's spend on finished ones. */
  spend: { attempts: number; costUsd: number; finishedIterations: number };
  /** What each story's attempts have cost so far, over every session. */
  storySpend(storyId: string): { costUsd: number; attempts: number };
}

/**
 * What a story run does next. The order: an outside stop once the running
 * work is over; a story spent up to --max-cost-per-story is parked before
 * anything starts; the next ready story starts unless --max-iterations or
 * --max-cost forbid it; with work in flight, wait for it; idle, finish (all
 * done, interrupted, a limit, blocked or asking) or wait out a hold or, with
 * --wait, an answer.
 */
export function nextStoryStep(view: StoryRunView): NextStep<StopReason> {
  const working = view.running > 0 || view.landing > 0;
  if (view.stopFor !== undefined && !working && !view.holding) return view.stopFor;
  let limit: StartLimit | null = null;
  if (view.interrupt === 'none' && !view.holding && view.stopFor === undefined) {
    const ready = readyStories(view.stories, {
      ...view.scope,
      parked: view.parked,
      waiting: view.asked,
      busy: view.busy,
      cap: view.workers - view.running,
      ...(view.first ? { first: view.first } : {}),
    });
    const spent = ready.map((s) => parkForSpend(view, s.id)).find((p) => p !== null);
    if (spent) return spent;
    const [story] = ready;
    if (story) {
      limit = startLimit({
        attempts: view.spend.attempts,
        maxIterations: view.limits.maxIterations,
        spend: { costUsd: view.spend.costUsd, iterations: view.spend.finishedIterations },
        maxCostUsd: view.limits.maxCostUsd,
        running: view.running,
      });
      if (limit === null) return { kind: 'attempt', storyId: story.id, role: 'story' };
    }
  }
  if (working || view.toLand > 0) return { kind: 'wait', for: 'running' };
  const idle = whenIdle({
    remaining: remainingStories(view.stories, view.scope),
    landed: new Set(view.stories.filter((s) => s.status === 'done').map((s) => s.id)),
    parked: view.parked,
    stop: view.interrupt,
    limit,
    maxIterations: view.limits.maxIterations,
    ...(view.limits.maxCostUsd !== undefined ? { maxCostUsd: view.limits.maxCostUsd } : {}),
    holding: view.holding,
    asked: view.asked,
    waitForAnswers: view.waitForAnswers,
    allDone: allDoneMessage(view.stories, view.scope, view.passedThisRun),
  });
  if (idle.kind === 'finish') return stop(idle.reason, idle.exitCode, idle.message);
  return { kind: 'wait', for: idle.kind === 'hold' ? 'hold' : 'answer' };
}

/** A story whose attempts already cost --max-cost-per-story (earlier runs, a race's resolution) is parked unstarted. */
function parkForSpend(view: StoryRunView, storyId: string): NextStep<StopReason> | null {
  const spent = view.storySpend(storyId);
  const reason = storyBudgetReason(spent.costUsd, view.limits.maxCostPerStoryUsd);
  return reason === null ? null : { kind: 'park', storyId, attempts: spent.attempts, reason };
}

/** How an attempt at a story ended, as far as what comes next goes. */
type StoryAttemptEnd =
  | { kind: 'failed'; storyId: string; attempt: number; reason: string; costUsd: number }
  /** Stopped by the user: rolled back, not counted. */
  | { kind: 'aborted' };

/**
 * What the last attempt's end decides by itself, before the next pick: a
 * failure out of retries (or over --max-cost-per-story) parks its story; an
 * interrupted attempt stops the run. Null: carry on and pick again.
 */
export function afterStoryAttempt(
  end: StoryAttemptEnd,
  limits: { maxRetries: number; maxCostPerStoryUsd?: number },
): NextStep<StopReason> | null {
  if (end.kind === 'aborted')
    return stop('interrupted', ExitCode.Interrupted, stopMessages.interruptedAttempt);
  const overBudget = storyBudgetReason(end.costUsd, limits.maxCostPerStoryUsd);
  if (end.attempt < limits.maxRetries && overBudget === null) return null;
  return { kind: 'park', storyId: end.storyId, attempts: end.attempt, reason: overBudget ?? end.reason };
}

/**
 * Whether the landing reserved for a story that lost a race holds up every
 * other landing for nothing: its story is not running, and could not start
 * later either (the run is stopping, or nothing but a limit keeps it from
 * starting now). Such a reservation is given up.
 */
export function reservationHoldsUp(view: {
  reserved: string | undefined;
  busy: ReadonlySet<string>;
  interrupt: Interrupt;
  holding: boolean;
  running: number;
  workers: number;
}): boolean {
  if (view.reserved === undefined || view.busy.has(view.reserved)) return false;
  const couldStartLater = view.interrupt === 'none' && (view.holding || view.running >= view.workers);
  return !couldStartLater;
}
