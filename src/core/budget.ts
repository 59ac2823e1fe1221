import { formatUsd } from './money.js';

export interface Spend {
  costUsd: number;
  iterations: number;
}

/**
 * Stop before an iteration that would likely cross the budget: what was
 * spent so far plus the average iteration's cost.
 */
export function wouldExceedCost(spend: Spend, maxCostUsd: number | undefined): boolean {
  if (maxCostUsd === undefined) return false;
  if (spend.costUsd >= maxCostUsd) return true;
  const average = spend.iterations > 0 ? spend.costUsd / spend.iterations : 0;
  return spend.costUsd + average > maxCostUsd;
}

/**
 * Parallel runs: stop starting attempts before what was spent, plus an
 * average attempt for each one still running and for the one about to
 * start, would cross the budget. `spend.iterations` counts finished
 * attempts only (running ones have not reported their cost yet).
 */
export function wouldExceedCostInFlight(
  spend: Spend,
  maxCostUsd: number | undefined,
  running: number,
): boolean {
  if (maxCostUsd === undefined) return false;
  if (spend.costUsd >= maxCostUsd) return true;
  const average = spend.iterations > 0 ? spend.costUsd / spend.iterations : 0;
  return spend.costUsd + average * (running + 1) > maxCostUsd;
}

/**
 * `--max-cost-per-story`: why a story is parked once its attempts together
 * have cost the budget (every attempt recorded for it, earlier runs' too),
 * or null while it is under.
 */
export function storyBudgetReason(costUsd: number, maxCostPerStoryUsd: number | undefined): string | null {
  if (maxCostPerStoryUsd === undefined || costUsd < maxCostPerStoryUsd) return null;
  return `its attempts cost ${formatUsd(costUsd)}, reaching the per-story budget of ${formatUsd(maxCostPerStoryUsd)} (--max-cost-per-story)`;
}
