/**
 * The lines of `opencode run --format json`, as far as ralph reads them:
 * `{type, timestamp, sessionID, part | error}`. Loose objects: OpenCode adds
 * fields often.
 */
import { z } from 'zod';

export const lineBaseSchema = z.looseObject({ type: z.string(), sessionID: z.string().optional() });

export const textLineSchema = z.looseObject({
  type: z.literal('text'),
  part: z.looseObject({ text: z.string(), synthetic: z.boolean().optional() }),
});

export const toolLineSchema = z.looseObject({
  type: z.literal('tool_use'),
  part: z.looseObject({
    tool: z.string(),
    callID: z.string().optional(),
    id: z.string().optional(),
    state: z.looseObject({
      status: z.string(),
      input: z.unknown().optional(),
      output: z.string().optional(),
      error: z.string().optional(),
    }),
  }),
});

export const stepFinishLineSchema = z.looseObject({
  type: z.literal('step_finish'),
  part: z.looseObject({
    reason: z.string().optional(),
    cost: z.number().optional(),
    tokens: z
      .looseObject({
        input: z.number().optional(),
        output: z.number().optional(),
        reasoning: z.number().optional(),
        cache: z.looseObject({ read: z.number().optional(), write: z.number().optional() }).optional(),
      })
      .optional(),
  }),
});

export const errorLineSchema = z.looseObject({
  type: z.literal('error'),
  error: z
    .looseObject({
      name: z.string().optional(),
      data: z
        .looseObject({
          message: z.string().optional(),
          statusCode: z.number().optional(),
          responseBody: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
});

export type StepFinishLine = z.infer<typeof stepFinishLineSchema>;
export type ErrorLine = z.infer<typeof errorLineSchema>;
