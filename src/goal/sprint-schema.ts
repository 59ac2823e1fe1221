import { z } from 'zod';
import { DEFAULT_IDLE_THRESHOLD, DEFAULT_MIN_ITERATIONS } from '../core/goal-types.js';
import { HookSchema } from '../state/config-schema.js';

/**
 * A goal file (seed 004's SPRINT.yaml). Keys are kebab-case as in the seed;
 * unknown keys are errors, so a typo never silently drops a setting.
 */
export const SprintSchema = z.strictObject({
  workflow: z.literal('ralph', { error: 'only `workflow: ralph` (goal mode) is supported' }).optional(),
  goal: z.string({ error: 'a goal text is required' }).trim().min(1, 'the goal must not be empty'),
  'success-criteria': z.array(z.string().trim().min(1)).default(() => []),
  ralph: z
    .strictObject({
      'idle-threshold': z.number().int().positive().default(DEFAULT_IDLE_THRESHOLD),
      'min-iterations': z.number().int().nonnegative().default(DEFAULT_MIN_ITERATIONS),
      'max-iterations': z.number().int().positive().optional(),
    })
    .prefault({}),
  /** A list of hook definitions, or `<id>: {enabled: …}` switches for hooks in .ralph/config.yaml. */
  'per-iteration-hooks': z.unknown().optional(),
  'sprint-id': z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  // YAML may read an unquoted timestamp as a string or a date; it is informational either way.
  created: z.unknown().optional(),
});

export const HookListSchema = z.array(HookSchema).superRefine((hooks, ctx) => {
  const seen = new Set<string>();
  hooks.forEach((hook, index) => {
    if (seen.has(hook.id)) {
      ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate hook id "${hook.id}"` });
    }
    seen.add(hook.id);
  });
});

export const HookSwitchesSchema = z.record(z.string().min(1), z.strictObject({ enabled: z.boolean() }));
