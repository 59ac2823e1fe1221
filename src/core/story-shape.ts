import type { AttemptFacts, AttemptShape, PreGateFacts } from './attempt-facts.js';
import { type OutsideFailure, responseTo } from './outside-failure.js';
import { interpretSignals, type Signals } from './signals.js';
import { type AttemptInput, judgeAttempt, shouldRunChecks, type Verdict } from './verdict.js';

const INTERRUPTED: Verdict = {
  kind: 'aborted',
  reason: 'The run was interrupted before the attempt could be verified.',
};

/**
 * A story attempt (design principle 2): DONE for this story id, a new
 * commit, every gate passing and a clean tree.
 */
export function storyShape(storyId: string): AttemptShape<Signals, Verdict> {
  const input = (facts: PreGateFacts<Signals>): Omit<AttemptInput, 'checks'> => ({
    expectedStoryId: storyId,
    signals: interpretSignals(facts.said, storyId),
    agentStop: {
      stopReason: facts.agent.stopReason,
      exitCode: facts.agent.exitCode,
      ...(facts.agent.resultOk !== undefined ? { resultOk: facts.agent.resultOk } : {}),
    },
    newCommits: facts.commits,
    treeClean: facts.dirtyPaths.length === 0,
    dirtyPaths: facts.dirtyPaths,
    ...(facts.agent.rateLimit
      ? { rateLimited: facts.agent.rateLimit.resetsAt ? { resetsAt: facts.agent.rateLimit.resetsAt } : {} }
      : {}),
  });
  return {
    read: (text) => text.signals(),
    wantsGates: (facts) => shouldRunChecks(input(facts)),
    judge: (facts: AttemptFacts<Signals>) => {
      const verdict = judgeAttempt({ ...input(facts), checks: facts.gates });
      // Stopped at once by the user: only a pass verified in full still stands.
      if (facts.interrupted && verdict.kind !== 'pass') return INTERRUPTED;
      const outside = facts.agent.outside;
      if (outside === undefined || verdict.kind === 'pass') return verdict;
      // Whatever else went wrong, the world outside got in the way first: the attempt is not the story's.
      if (responseTo(outside.cause) !== 'limit') return outsideVerdict(outside);
      return verdict.kind === 'rate-limited' && outside.cause === 'quota'
        ? { ...verdict, quota: true }
        : verdict;
    },
  };
}

function outsideVerdict(failure: OutsideFailure): Verdict {
  return { kind: 'outside', reason: `${failure.cause}: ${failure.message}`, failure };
}
