import { z } from 'zod';

const lowerCase = (value: unknown): unknown =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

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
    priority: z.number().optional(),
    title: z.string().optional(),
  })
  .loose();

export type SpecFrontMatter = z.infer<typeof specFrontMatterSchema>;
