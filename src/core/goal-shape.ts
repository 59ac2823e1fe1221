import type { AttemptFacts, AttemptShape, PreGateFacts } from './attempt-facts.js';
import type { GoalResultParse } from './goal-result.js';
import type { GoalResult } from './goal-types.js';
import { type OutsideFailure, responseTo } from './outside-failure.js';

export const GOAL_FAILURE_KINDS = [
  'no-result',
  'invalid-result',
  'agent-stopped',
  'dirty-tree',
  'checks-failed',
] as const;
export type GoalFailureKind = (typeof GOAL_FAILURE_KINDS)[number];

export type GoalVerdict =
  | { kind: 'result'; result: GoalResult }
  | { kind: 'failed'; failure: GoalFailureKind; reason: string; outputTail?: string }
  | { kind: 'rate-limited'; message: string; resetsAt?: string }
  /** The agent could not be used, or its API was out: the iteration is not counted. */
  | { kind: 'outside'; failure: OutsideFailure }
  | { kind: 'aborted' };

/**
 * A goal iteration (seed 004): a valid JSON result, a clean tree, and the
 * gates when it committed or claims the goal complete.
 */
export const goalShape: AttemptShape<GoalResultParse, GoalVerdict> = {
  read: (text) => text.goalResult(),
  wantsGates: (facts) => {
    const pre = preGate(facts);
    return 'result' in pre && (facts.commits.length > 0 || pre.result.status === 'goal-complete');
  },
  judge: (facts: AttemptFacts<GoalResultParse>): GoalVerdict => {
    const verdict = judgeGoal(facts);
    // Stopped at once by the user: only a result verified in full still stands.
    if (facts.interrupted && verdict.kind !== 'result') return { kind: 'aborted' };
    const outside = facts.agent.outside;
    if (outside !== undefined && verdict.kind !== 'result' && responseTo(outside.cause) !== 'limit') {
      return { kind: 'outside', failure: outside };
    }
    return verdict;
  },
};

function judgeGoal(facts: AttemptFacts<GoalResultParse>): GoalVerdict {
  const pre = preGate(facts);
  if ('verdict' in pre) return pre.verdict;
  const failed = facts.gates === 'not-run' ? undefined : facts.gates.find((r) => r.exitCode !== 0);
  if (failed) {
    return {
      kind: 'failed',
      failure: 'checks-failed',
      reason: `the check \`${failed.command}\` failed (exit ${failed.exitCode})`,
      outputTail: failed.outputTail,
    };
  }
  return { kind: 'result', result: pre.result };
}

const STOPPED_FOR = {
  timeout: 'the time limit',
  idle: 'being silent too long',
  'spawn-error': 'failing to start',
} as const;

/**
 * Everything but the gates, in order: an interrupt, a rate limit, a stopped
 * agent, the result, the tree. Either a verdict already, or the valid result.
 */
function preGate(facts: PreGateFacts<GoalResultParse>): { verdict: GoalVerdict } | { result: GoalResult } {
  const { agent, said } = facts;
  const failed = (failure: GoalFailureKind, reason: string) => ({
    verdict: { kind: 'failed', failure, reason } as const,
  });
  if (agent.stopReason === 'aborted') return { verdict: { kind: 'aborted' } };
  if (agent.rateLimit && !said.ok) return { verdict: { kind: 'rate-limited', ...agent.rateLimit } };
  if (agent.stopReason !== 'exited') {
    const detail = agent.stopReason === 'spawn-error' ? `: ${agent.stderrTail.trim()}` : '';
    return failed('agent-stopped', `the agent was stopped for ${STOPPED_FOR[agent.stopReason]}${detail}`);
  }
  if (!said.ok) {
    const agentError = agent.resultOk === false ? ' (the agent reported an error)' : '';
    return failed(
      said.error.startsWith('no ') ? 'no-result' : 'invalid-result',
      `${said.error}${agentError}`,
    );
  }
  const dirty = facts.dirtyPaths;
  if (dirty.length > 0) {
    const shown =
      dirty.slice(0, 10).join(', ') + (dirty.length > 10 ? `, and ${dirty.length - 10} more` : '');
    return failed(
      'dirty-tree',
      `it left uncommitted changes (${shown}); commit the work, and leave no stray files`,
    );
  }
  return { result: said.result };
}
