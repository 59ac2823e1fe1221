import type { OutsideFailure } from './outside-failure.js';
import type { SignalInterpretation } from './signals.js';

/**
 * Whether an attempt passed (design principle 2, "Done means verified"): the
 * agent signalled DONE for the story it was given, at least one new commit
 * exists, the tree is clean and every configured check exited 0. Anything
 * else is a failed attempt, with a reason written to be shown to the next
 * attempt. Hitting a rate or usage limit is not the story's fault and is
 * reported apart, so it does not use up a retry.
 */

export type StopReason = 'exited' | 'timeout' | 'idle' | 'aborted' | 'spawn-error';

export interface AgentStop {
  stopReason: StopReason;
  /** Null when the process was killed or never started. */
  exitCode: number | null;
  /** The agent's own final result said success (false: it reported an error). Unknown when absent. */
  resultOk?: boolean;
}

export interface CheckResult {
  command: string;
  /** Null when the check was killed (its own timeout). */
  exitCode: number | null;
  outputTail: string;
}

export interface AttemptInput {
  expectedStoryId: string;
  signals: SignalInterpretation;
  agentStop: AgentStop;
  /** Commits made since the attempt began, oldest first. */
  newCommits: readonly { sha: string; subject: string }[];
  /** The gate results; an empty list when no checks are configured. */
  checks: readonly CheckResult[] | 'not-run';
  /** Taken after the agent stopped (and any auto-commit), before checks ran: checks may leave build output behind. */
  treeClean: boolean;
  /** The uncommitted paths, when known, to name them in the reason. */
  dirtyPaths?: readonly string[];
  rateLimited?: { resetsAt?: string; message?: string };
}

export const FAILURE_KINDS = [
  'fail-signal',
  'wrong-id',
  'no-signal',
  'no-commit',
  'check-failed',
  'dirty-tree',
  'timeout',
  'idle',
  'crash',
  'aborted',
  // Parallel runs: verified in its own checkout, the work conflicted with the PRD branch's new tip.
  'conflict',
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export interface AttemptFailure {
  kind: FailureKind;
  /** What went wrong, fit to be shown to the next attempt; names the failing check commands. */
  reason: string;
  /** For `check-failed`: the failing checks' output tails, each headed by its command. */
  gateOutputTail?: string;
}

/** The agent asked a person (`<ralph>ASK …</ralph>`): the story waits for the answer; the attempt does not count. */
export interface AttemptQuestion {
  kind: 'question';
  question: string;
  reason: string;
}

export type Verdict =
  | { kind: 'pass' }
  | AttemptFailure
  | AttemptQuestion
  /** `quota`: a usage limit until a reset time, rather than a short-term rate limit. */
  | { kind: 'rate-limited'; reason: string; resetsAt?: string; quota?: true }
  /** The agent could not be used, or its API was out: never the story's fault. */
  | { kind: 'outside'; reason: string; failure: OutsideFailure };

/**
 * Whether the gates are worth running: the agent claimed this story, made a
 * commit and left the tree clean. Without those the attempt fails anyway, and
 * the checks (often the slowest step) would only delay the retry.
 */
export function shouldRunChecks(input: Omit<AttemptInput, 'checks'>): boolean {
  return preCheckFailure(input) === null;
}

export function judgeAttempt(input: AttemptInput): Verdict {
  const { signals, agentStop } = input;
  // A question stands even when the agent was then stopped; an interrupt or a failed start does not ask anything.
  if (
    signals.kind === 'ask' &&
    agentStop.stopReason !== 'aborted' &&
    agentStop.stopReason !== 'spawn-error'
  ) {
    return { kind: 'question', question: signals.question, reason: `The agent asked: ${signals.question}` };
  }
  const failure = preCheckFailure(input) ?? checksFailure(input.checks);
  if (failure === null) return { kind: 'pass' };
  // An interrupt is the user's decision, whatever limit the agent ran into.
  if (input.rateLimited && failure.kind !== 'aborted') return rateLimited(input.rateLimited);
  return failure;
}

function rateLimited({ resetsAt, message }: NonNullable<AttemptInput['rateLimited']>): Verdict {
  const when = resetsAt ? ` (resets at ${resetsAt})` : '';
  const reason = `The agent hit a rate or usage limit${when}.${message ? ` ${message}` : ''}`;
  return resetsAt ? { kind: 'rate-limited', reason, resetsAt } : { kind: 'rate-limited', reason };
}

/** Everything but the checks, in the order the rules are listed above. */
function preCheckFailure(input: Omit<AttemptInput, 'checks'>): AttemptFailure | null {
  const { signals, agentStop, expectedStoryId } = input;
  if (agentStop.stopReason === 'aborted') {
    return { kind: 'aborted', reason: 'The run was interrupted before the attempt could be verified.' };
  }
  if (agentStop.stopReason === 'spawn-error')
    return { kind: 'crash', reason: 'The agent could not be started.' };
  switch (signals.kind) {
    case 'fail':
      return {
        kind: 'fail-signal',
        reason: signals.reason
          ? `The agent reported FAIL: ${signals.reason}`
          : 'The agent reported FAIL without a reason.',
      };
    case 'done-wrong-id':
      return {
        kind: 'wrong-id',
        reason: `The agent signalled DONE for ${signals.id || 'no story id'}, but the story to work on was ${expectedStoryId}.`,
      };
    case 'none':
      return noSignal(input);
    case 'ask':
      // Judged as a question before this; here it only keeps the gates from running.
      return { kind: 'no-signal', reason: 'The agent asked a question instead of finishing the story.' };
    case 'done':
      break;
  }
  // DONE was said; a stop after it (going silent, running out the clock) does not undo the work.
  const after = stoppedAfterDone(agentStop);
  if (input.newCommits.length === 0) {
    return {
      kind: 'no-commit',
      reason: `The agent signalled DONE for ${expectedStoryId}, but made no new commit.${after}`,
    };
  }
  if (!input.treeClean) {
    const paths = input.dirtyPaths?.length ? ` Uncommitted: ${listPaths(input.dirtyPaths)}.` : '';
    return {
      kind: 'dirty-tree',
      reason: `The work was committed but the working tree still had uncommitted changes.${paths}${after}`,
    };
  }
  return null;
}

function noSignal(input: Omit<AttemptInput, 'checks'>): AttemptFailure {
  const { stopReason, exitCode, resultOk } = input.agentStop;
  const made = input.newCommits.length;
  const commits = made > 0 ? ` It had made ${made} commit${made === 1 ? '' : 's'}.` : '';
  if (stopReason === 'timeout') {
    return { kind: 'timeout', reason: `The agent reached the time limit before signalling DONE.${commits}` };
  }
  if (stopReason === 'idle') {
    return {
      kind: 'idle',
      reason: `The agent was stopped after producing no output for too long.${commits}`,
    };
  }
  if (exitCode === null) {
    return { kind: 'crash', reason: `The agent process was killed before signalling DONE.${commits}` };
  }
  if (exitCode !== 0) {
    return {
      kind: 'crash',
      reason: `The agent exited with code ${exitCode} before signalling DONE.${commits}`,
    };
  }
  if (resultOk === false) {
    return {
      kind: 'crash',
      reason: `The agent ended with an error result before signalling DONE.${commits}`,
    };
  }
  return {
    kind: 'no-signal',
    reason: `The agent finished without signalling DONE ${input.expectedStoryId} or FAIL.${commits}`,
  };
}

function stoppedAfterDone(stop: AgentStop): string {
  if (stop.stopReason === 'timeout') return ' (It was then stopped at the time limit.)';
  if (stop.stopReason === 'idle') return ' (It then went silent and was stopped.)';
  return '';
}

function checksFailure(checks: AttemptInput['checks']): AttemptFailure | null {
  if (checks === 'not-run') {
    return { kind: 'check-failed', reason: 'The checks were not run, so the work could not be verified.' };
  }
  const failed = checks.filter((c) => c.exitCode !== 0);
  if (failed.length === 0) return null;
  const described = failed.map(
    (c) => `\`${c.command}\` ${c.exitCode === null ? 'was killed' : `exited with code ${c.exitCode}`}`,
  );
  const reason =
    failed.length === 1
      ? `The check ${described[0]}.`
      : `${failed.length} checks failed: ${described.join('; ')}.`;
  const gateOutputTail = failed.map((c) => `$ ${c.command}\n${c.outputTail.trimEnd()}`).join('\n\n');
  return { kind: 'check-failed', reason, gateOutputTail };
}

const MAX_LISTED = 10;

function listPaths(paths: readonly string[]): string {
  const shown = paths.slice(0, MAX_LISTED).join(', ');
  return paths.length > MAX_LISTED ? `${shown} and ${paths.length - MAX_LISTED} more` : shown;
}
