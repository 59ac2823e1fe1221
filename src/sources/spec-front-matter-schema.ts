import { z } from 'zod';

const lowerCase = (value: unknown): unknown =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

/** The spec skill's priority words as numbers: critical first. */
export const PRIORITY_WORDS = { critical: 1, high: 2, medium: 3, low: 4 } as const;

/**
 * The front matter fields ralph reads from a spec file. Others (estimation,
 * frs, ...) are allowed and never touched. `depends_on` and `id` are read
 * from the YAML nodes instead, so `1.10` is not turned into the number 1.1.
 */
export const specFrontMatterSchema = z
  .object({
    status: z
      .preprocess(
        lowerCase,
        z.enum(['pending', 'todo', 'in-progress', 'in_progress', 'done'], {
          error: (issue) => `expected pending, in-progress or done, received ${JSON.stringify(issue.input)}`,
        }),
      )
      .optional(),
    /** A number, or the spec skill's words: critical runs before high, medium, low. */
    priority: z
      .preprocess(
        lowerCase,
        z.union([z.number(), z.enum(['critical', 'high', 'medium', 'low'])], {
          error: (issue) =>
            `expected a number or critical, high, medium, low; received ${JSON.stringify(issue.input)}`,
        }),
      )
      .transform((value) => (typeof value === 'number' ? value : PRIORITY_WORDS[value]))
      .optional(),
    title: z.string().optional(),
  })
  .loose();
