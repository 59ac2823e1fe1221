/**
 * Amp's `--stream-json` lines follow Claude Code's stream-json shapes
 * (`system`/`assistant`/`user`/`result`); these are the parts that differ:
 * usage on each assistant message, and an `error` text on failed results.
 */
import { z } from 'zod';

export const messageUsageSchema = z.looseObject({
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  cache_read_input_tokens: z.number().optional(),
  cache_creation_input_tokens: z.number().optional(),
});

export const assistantUsageSchema = z.looseObject({
  message: z.looseObject({ usage: messageUsageSchema.optional() }),
});

export const ampResultSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string(),
  is_error: z.boolean().optional(),
  result: z.string().optional(),
  error: z.string().optional(),
  duration_ms: z.number().optional(),
  num_turns: z.number().optional(),
  session_id: z.string().optional(),
  total_cost_usd: z.number().optional(),
  usage: messageUsageSchema.optional(),
});

export type AmpResult = z.infer<typeof ampResultSchema>;
