/** What only a goal run says: the agent's result, and the tool's view of it. */
import { z } from 'zod';
import { GOAL_RESULT_STATUSES } from '../core/goal-types.js';

export const GOAL_EVENTS = [
  z.object({
    type: z.literal('goal-result'),
    iteration: z.number(),
    status: z.enum(GOAL_RESULT_STATUSES),
    summary: z.string(),
    completedStepIds: z.array(z.string()),
    addedSteps: z.array(z.object({ id: z.string(), prompt: z.string() })),
    commits: z.array(z.object({ sha: z.string(), subject: z.string() })),
    steps: z.object({ total: z.number(), completed: z.number() }),
  }),
  z.object({ type: z.literal('goal-warning'), iteration: z.number(), message: z.string() }),
  z.object({ type: z.literal('goal-complete-refused'), iteration: z.number(), reason: z.string() }),
] as const;
