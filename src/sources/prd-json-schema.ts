import { z } from 'zod';
import { PRIORITY_WORDS } from './spec-front-matter-schema.js';

/** `critical`, `high`, `medium`, `low` as the spec files read them; anything else is left for the number check to refuse. */
const priorityWord = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  return Object.hasOwn(PRIORITY_WORDS, word) ? PRIORITY_WORDS[word as keyof typeof PRIORITY_WORDS] : value;
};

/**
 * One entry of `userStories` in a snarktank / Chief / ralph-tui prd.json.
 * Unknown fields (ralph-tui's `labels`, `completionNotes`, ...) are allowed
 * and kept on write-back. `acceptanceCriteria` may be missing (Chief's older
 * files); the reader warns about it. So may `title` (its id stands in, with
 * a warning) and `priority` (file order). `acceptanceCriteriaChecked` is
 * ralph's own: each criterion's tick, parallel to `acceptanceCriteria`, so
 * a prd.md converted to JSON and back keeps its `- [x]` boxes; other tools
 * ignore it.
 */
export const prdJsonStorySchema = z
  .object({
    id: z.string().min(1, 'story id must not be empty'),
    title: z.string().optional(),
    description: z.string().optional(),
    acceptanceCriteria: z.array(z.string()).optional(),
    acceptanceCriteriaChecked: z.array(z.boolean()).optional(),
    priority: z.preprocess(priorityWord, z.number()).optional(),
    passes: z.boolean(),
    inProgress: z.boolean().optional(),
    notes: z.string().optional(),
    dependsOn: z.array(z.string()).optional(),
  })
  .loose();

/** The story fields ralph reads; any other field is carried as it is. */
export const KNOWN_STORY_FIELDS: ReadonlySet<string> = new Set(Object.keys(prdJsonStorySchema.shape));

/**
 * ralph's own: a prd.md's text outside its stories, so md -> json -> md
 * keeps its Overview, Goals, Non-Goals and the rest. Other tools ignore it.
 */
export const markdownSectionsSchema = z.array(
  z
    .object({
      markdown: z.string(),
      beforeStory: z.string().optional(),
      beforeTitle: z.literal(true).optional(),
    })
    .strict(),
);

/** The top level; each story is checked on its own so one bad story does not hide the others' problems. */
export const prdJsonTopSchema = z
  .object({
    /** ralph-tui writes `name`, others `productName` or `projectName`, where snarktank and Chief write `project`. */
    project: z.string().optional(),
    name: z.string().optional(),
    productName: z.unknown().optional(),
    projectName: z.unknown().optional(),
    branchName: z.string().optional(),
    description: z.string().optional(),
    userStories: z.array(z.unknown()),
    markdownSections: markdownSectionsSchema.optional(),
  })
  .loose();

export type PrdJsonStory = z.infer<typeof prdJsonStorySchema>;
