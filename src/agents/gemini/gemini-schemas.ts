/**
 * The lines of `gemini -p … --output-format stream-json`, as far as ralph
 * reads them. Loose objects: Gemini CLI adds fields often.
 */
import { z } from 'zod';

export const initLineSchema = z.looseObject({
  type: z.literal('init'),
  session_id: z.string().optional(),
  model: z.string().optional(),
});

export const messageLineSchema = z.looseObject({
  type: z.literal('message'),
  role: z.string(),
  content: z.string(),
  /** Set on streamed assistant text: one model answer comes as several lines. */
  delta: z.boolean().optional(),
});

export const toolUseLineSchema = z.looseObject({
  type: z.literal('tool_use'),
  tool_name: z.string(),
  tool_id: z.string(),
  parameters: z.unknown().optional(),
});

const errorDetailSchema = z.looseObject({ type: z.string().optional(), message: z.string() });

export const toolResultLineSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_id: z.string(),
  status: z.string(),
  output: z.string().optional(),
  error: errorDetailSchema.optional(),
});

export const errorLineSchema = z.looseObject({
  type: z.literal('error'),
  severity: z.string().optional(),
  message: z.string(),
});

export const statsSchema = z.looseObject({
  total_tokens: z.number().optional(),
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  cached: z.number().optional(),
  /** Input tokens not served from the cache. */
  input: z.number().optional(),
  duration_ms: z.number().optional(),
  tool_calls: z.number().optional(),
});

export const resultLineSchema = z.looseObject({
  type: z.literal('result'),
  status: z.string(),
  error: errorDetailSchema.optional(),
  stats: statsSchema.optional(),
});

export type Stats = z.infer<typeof statsSchema>;
export type ResultLine = z.infer<typeof resultLineSchema>;
