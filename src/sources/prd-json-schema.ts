import { z } from 'zod';

/**
 * One entry of `userStories` in a snarktank / Chief / ralph-tui prd.json.
 * Unknown fields (ralph-tui's `labels`, `completionNotes`, ...) are allowed
 * and kept on write-back. `acceptanceCriteria` may be missing (Chief's older
 * files); the reader warns about it. `acceptanceCriteriaChecked` is ralph's
 * own: each criterion's tick, parallel to `acceptanceCriteria`, so a prd.md
 * converted to JSON and back keeps its `- [x]` boxes; other tools ignore it.
 */
export const prdJsonStorySchema = z
  .object({
    id: z.string().min(1, 'story id must not be empty'),
    title: z.string(),
    description: z.string().optional(),
    acceptanceCriteria: z.array(z.string()).optional(),
    acceptanceCriteriaChecked: z.array(z.boolean()).optional(),
    priority: z.number(),
    passes: z.boolean(),
    inProgress: z.boolean().optional(),
    notes: z.string().optional(),
    dependsOn: z.array(z.string()).optional(),
  })
  .loose();

/** The top level; each story is checked on its own so one bad story does not hide the others' problems. */
export const prdJsonTopSchema = z
  .object({
    /** ralph-tui writes `name` where snarktank and Chief write `project`. */
    project: z.string().optional(),
    name: z.string().optional(),
    branchName: z.string().optional(),
    description: z.string().optional(),
    userStories: z.array(z.unknown()),
  })
  .loose();

export type PrdJsonStory = z.infer<typeof prdJsonStorySchema>;
