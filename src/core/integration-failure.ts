import type { AttemptFailure } from './verdict.js';

/** Why verified work could not land, as the merge queue found it. */
export type IntegrationProblem =
  | { kind: 'conflict'; files: readonly string[]; diff: string }
  | { kind: 'gates'; command: string; exitCode: number; outputTail: string };

/**
 * The failed attempt a merge-queue rejection counts as, worded for the
 * retry's prompt: what conflicted or failed, and which stories landed on
 * the PRD branch while the attempt ran (the retry starts from the new tip,
 * which has their changes).
 */
export function integrationFailure(
  problem: IntegrationProblem,
  landedMeanwhile: readonly string[],
): AttemptFailure {
  const retry = `This attempt starts from the new tip, which has ${landedMeanwhile.length === 0 ? 'those changes' : 'their changes'}: build on them.`;
  const reason = `${whyNotLanded(problem, landedMeanwhile)} ${retry}`;
  if (problem.kind === 'conflict') {
    return {
      kind: 'conflict',
      reason,
      ...(problem.diff.trim() === '' ? {} : { gateOutputTail: problem.diff }),
    };
  }
  return {
    kind: 'check-failed',
    reason,
    ...(problem.outputTail.trim() === '' ? {} : { gateOutputTail: problem.outputTail }),
  };
}

/** Why verified work could not land: what conflicted or failed, and which stories landed meanwhile. */
export function whyNotLanded(problem: IntegrationProblem, landedMeanwhile: readonly string[]): string {
  const landed =
    landedMeanwhile.length === 0
      ? 'the PRD branch moved on while it ran'
      : `while it ran, ${list(landedMeanwhile)} landed on the PRD branch`;
  if (problem.kind === 'conflict') {
    return `Your previous attempt passed verification in its own checkout but could not be landed: ${landed}, and your commits conflict with it in ${list(problem.files.map((f) => `\`${f}\``))}.`;
  }
  return `Your previous attempt passed verification in its own checkout, but once landed on the PRD branch's new tip the check \`${problem.command}\` failed (exit ${problem.exitCode}): ${landed}.`;
}

function list(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
