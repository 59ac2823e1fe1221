/** The one wording of each stop the runners share (see `nextStoryStep`, `nextGoalStep`). */
export const stopMessages = {
  interrupted: 'stopped',
  /** A second Ctrl-C took running attempts down with it. */
  interruptedAttempts: 'stopped; the interrupted attempts were rolled back',
  interruptedAttempt: 'stopped; the interrupted attempt was rolled back',
  interruptedIteration: 'stopped; the interrupted iteration was rolled back',
  maxIterations: (n: number) => `reached the limit of ${n} iteration${n === 1 ? '' : 's'}`,
  goalMaxIterations: (n: number) => `reached the limit of ${n} iterations without completing the goal`,
  maxCost: (usd: number | undefined) => `stopped before exceeding the $${usd} budget`,
  failures: (consecutive: number, last: string) =>
    `stopped with work left: ${consecutive} iterations in a row failed (last: ${last})`,
  goalComplete: (iteration: number) => `goal complete in iteration ${iteration}`,
  needsHuman: (iteration: number) => `stopped: iteration ${iteration} needs a human`,
};
