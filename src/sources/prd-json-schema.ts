import { z } from 'zod';

/** One entry of `userStories` in a snarktank / Chief prd.json. Unknown fields are allowed and kept on write-back. */
export const prdJsonStorySchema = z
  .object({
    id: z.string().min(1, 'story id must not be empty'),
    title: z.string(),
    description: z.string().optional(),
    acceptanceCriteria: z.array(z.string()),
    priority: z.number(),
    passes: z.boolean(),
    inProgress: z.boolean().optional(),
    notes: z.string().optional(),
    dependsOn: z.array(z.string()).optional(),
  })
  .loose();

export const prdJsonSchema = z
  .object({
    project: z.string(),
    branchName: z.string().optional(),
    description: z.string().optional(),
    userStories: z.array(prdJsonStorySchema),
  })
  .loose();

export type PrdJson = z.infer<typeof prdJsonSchema>;
