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
