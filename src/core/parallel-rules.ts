import type { Spend } from './budget.js';
import { wouldExceedCostInFlight } from './budget.js';
import { ExitCode } from './errors.js';
import { stopMessages } from './stop-messages.js';
import type { Story } from './types.js';

/** Story runs: the stop rules that apply when an attempt would start and when nothing is left to wait on (see `nextStoryStep`). */

export type StartLimit = 'max-iterations' | 'max-cost';

/**
 * Whether another attempt may start: `--max-iterations` counts the attempts
 * of every worker; `--max-cost` counts an average attempt for each one still
 * running. `spend.iterations` counts finished attempts only.
 */
export function startLimit(input: {
  attempts: number;
  maxIterations: number;
  spend: Spend;
  maxCostUsd: number | undefined;
  running: number;
}): StartLimit | null {
  if (input.attempts >= input.maxIterations) return 'max-iterations';
  if (wouldExceedCostInFlight(input.spend, input.maxCostUsd, input.running)) return 'max-cost';
  return null;
}

export type IdleDecision =
  | {
      kind: 'finish';
      reason: 'all-done' | 'interrupted' | 'max-iterations' | 'max-cost' | 'blocked' | 'questions';
      exitCode: ExitCode;
      message: string;
    }
  /** A rate limit holds new starts: wait it out, then pick again. */
  | { kind: 'hold' }
  /** `--wait`: only stories waiting for answers (and their dependants) are left; wait for an answer. */
  | { kind: 'await-answers' };

/**
 * What a parallel run does when no worker is busy and nothing waits to
 * land: finish (all done, interrupted, a limit, or blocked by parked
 * stories, stories waiting for answers, and their dependants), sit out a
 * rate-limit hold, or (`--wait`) wait for an answer.
 */
export function whenIdle(input: {
  /** Stories in scope not done on the PRD branch. */
  remaining: readonly Story[];
  landed: ReadonlySet<string>;
  parked: ReadonlySet<string>;
  stop: 'none' | 'graceful' | 'immediate';
  limit: StartLimit | null;
  maxIterations: number;
  maxCostUsd?: number;
  holding: boolean;
  /** Stories whose question waits for an answer. */
  asked?: ReadonlySet<string>;
  /** `--wait`: wait for answers rather than finish. */
  waitForAnswers?: boolean;
  /** What to say when nothing in scope is left (see `allDoneMessage`). */
  allDone: string;
}): IdleDecision {
  const finish = (
    reason: Extract<IdleDecision, { kind: 'finish' }>['reason'],
    exitCode: ExitCode,
    message: string,
  ) => ({ kind: 'finish', reason, exitCode, message }) as const;
  if (input.remaining.length === 0) return finish('all-done', ExitCode.Success, input.allDone);
  if (input.stop === 'immediate')
    return finish('interrupted', ExitCode.Interrupted, stopMessages.interruptedAttempts);
  if (input.stop === 'graceful') return finish('interrupted', ExitCode.Interrupted, stopMessages.interrupted);
  if (input.limit === 'max-iterations')
    return finish('max-iterations', ExitCode.LimitReached, stopMessages.maxIterations(input.maxIterations));
  if (input.limit === 'max-cost')
    return finish('max-cost', ExitCode.LimitReached, stopMessages.maxCost(input.maxCostUsd));
  if (input.holding) return { kind: 'hold' };
  const asked = input.asked ?? new Set<string>();
  const asking = input.remaining.some((s) => asked.has(s.id));
  if (asking && input.waitForAnswers) return { kind: 'await-answers' };
  const waiting = input.remaining.map((s) =>
    asked.has(s.id)
      ? `${s.id} (waits for an answer)`
      : input.parked.has(s.id)
        ? `${s.id} (parked)`
        : `${s.id} (waits on ${s.dependsOn.filter((d) => !input.landed.has(d)).join(', ')})`,
  );
  const message = `stopped with work left: ${waiting.join('; ')}`;
  return finish(asking ? 'questions' : 'blocked', ExitCode.WorkLeft, message);
}
