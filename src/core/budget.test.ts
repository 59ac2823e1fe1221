import { describe, expect, it } from 'vitest';
import { storyBudgetReason, wouldExceedCost, wouldExceedCostInFlight } from './budget.js';

describe('wouldExceedCost', () => {
  it('never stops without a budget', () => {
    expect(wouldExceedCost({ costUsd: 1e6, iterations: 3 }, undefined)).toBe(false);
  });
  it('stops once the budget is spent', () => {
    expect(wouldExceedCost({ costUsd: 5, iterations: 10 }, 5)).toBe(true);
  });
  it('stops before an average iteration would cross the budget', () => {
    expect(wouldExceedCost({ costUsd: 4, iterations: 4 }, 4.5)).toBe(true);
    expect(wouldExceedCost({ costUsd: 3, iterations: 4 }, 4.5)).toBe(false);
  });
  it('lets the first iteration start under any positive budget', () => {
    expect(wouldExceedCost({ costUsd: 0, iterations: 0 }, 0.01)).toBe(false);
  });
});

describe('wouldExceedCostInFlight', () => {
  it('counts an average attempt for each one still running and the next', () => {
    // $1 per attempt so far; two running, one more would make $6 of a $5.5 budget.
    expect(wouldExceedCostInFlight({ costUsd: 3, iterations: 3 }, 5.5, 2)).toBe(true);
    expect(wouldExceedCostInFlight({ costUsd: 3, iterations: 3 }, 5.5, 1)).toBe(false);
    expect(wouldExceedCostInFlight({ costUsd: 3, iterations: 3 }, undefined, 50)).toBe(false);
    expect(wouldExceedCostInFlight({ costUsd: 6, iterations: 3 }, 5.5, 0)).toBe(true);
  });
});

describe('storyBudgetReason', () => {
  it('says nothing without a budget or under it, and parks a story whose attempts reach it', () => {
    expect(storyBudgetReason(5, undefined)).toBeNull();
    expect(storyBudgetReason(0.49, 0.5)).toBeNull();
    expect(storyBudgetReason(0.5, 0.5)).toBe(
      'its attempts cost $0.50, reaching the per-story budget of $0.50 (--max-cost-per-story)',
    );
    expect(storyBudgetReason(0.0123, 0.01)).toBe(
      'its attempts cost $0.012, reaching the per-story budget of $0.01 (--max-cost-per-story)',
    );
  });
});
