/**
 * The lines of `claude -p --output-format stream-json --verbose`, as far as
 * ralph reads them. Claude Code adds fields often: unknown ones are
 * accepted and dropped (copying them through cost an eighth of parsing time).
 */
import { z } from 'zod';

export const textBlockSchema = z.object({ type: z.literal('text'), text: z.string() });

export const toolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});

const resultContentSchema = z.union([
  z.string(),
  z.array(z.object({ type: z.string(), text: z.string().optional() })),
]);

export const toolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: resultContentSchema.optional(),
  is_error: z.boolean().nullish(),
});

const lineBase = {
  session_id: z.string().optional(),
  // Set on lines from a subagent (Task tool); null on the main agent's own lines.
  parent_tool_use_id: z.string().nullish(),
};

export const systemLineSchema = z.object({
  type: z.literal('system'),
  subtype: z.string().optional(),
  model: z.string().optional(),
  ...lineBase,
});

/** Claude Code retrying an API request: `{type: system, subtype: api_retry, attempt, max_retries, ...}`. */
export const apiRetryLineSchema = z.object({
  type: z.literal('system'),
  subtype: z.literal('api_retry'),
  attempt: z.number(),
  max_retries: z.number(),
  retry_delay_ms: z.number(),
  error_status: z.number().nullish(),
  error: z.string().optional(),
});

export const assistantLineSchema = z.object({
  type: z.literal('assistant'),
  message: z.object({
    model: z.string().optional(),
    content: z.array(z.unknown()),
  }),
  /** Claude Code's own error code on the synthetic message it writes for an API failure. */
  error: z.string().optional(),
  ...lineBase,
});

export const userLineSchema = z.object({
  type: z.literal('user'),
  message: z.object({ content: z.union([z.string(), z.array(z.unknown())]) }),
  ...lineBase,
});

const resultUsageSchema = z.object({
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  cache_read_input_tokens: z.number().optional(),
  cache_creation_input_tokens: z.number().optional(),
});

export const resultLineSchema = z.object({
  type: z.literal('result'),
  subtype: z.string(),
  is_error: z.boolean().optional(),
  result: z.string().optional(),
  errors: z.array(z.string()).optional(),
  api_error_status: z.number().nullish(),
  total_cost_usd: z.number().optional(),
  duration_ms: z.number().optional(),
  num_turns: z.number().optional(),
  usage: resultUsageSchema.optional(),
  ...lineBase,
});

export const rateLimitLineSchema = z.object({
  type: z.literal('rate_limit_event'),
  rate_limit_info: z.object({
    status: z.string(),
    resetsAt: z.number().optional(),
    rateLimitType: z.string().optional(),
  }),
});

export type ApiRetryLine = z.infer<typeof apiRetryLineSchema>;
export type AssistantLine = z.infer<typeof assistantLineSchema>;
export type UserLine = z.infer<typeof userLineSchema>;
export type ResultLine = z.infer<typeof resultLineSchema>;
