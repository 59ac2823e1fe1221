/**
 * The lines of `cursor-agent -p --output-format stream-json`, as documented
 * (cursor.com/docs/cli/reference/output-format). Loose objects throughout:
 * the CLI is closed source and its tool payloads vary by tool.
 */
import { z } from 'zod';

export const systemLineSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.string().optional(),
  session_id: z.string().optional(),
  model: z.string().optional(),
});

export const assistantLineSchema = z.looseObject({
  type: z.literal('assistant'),
  message: z.looseObject({
    content: z.array(z.looseObject({ type: z.string().optional(), text: z.string().optional() })),
  }),
});

/** `{ type: 'tool_call', subtype, call_id, tool_call: { shellToolCall: { args, result } } }`. */
export const toolCallLineSchema = z.looseObject({
  type: z.literal('tool_call'),
  subtype: z.string(),
  call_id: z.string(),
  tool_call: z.record(z.string(), z.unknown()),
});

export const toolPayloadSchema = z.looseObject({
  args: z.unknown().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
});

/** The generic form some versions use for custom (MCP) tools. */
export const functionPayloadSchema = z.looseObject({
  name: z.string(),
  arguments: z.unknown().optional(),
});

const usageSchema = z.looseObject({
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  cacheReadTokens: z.number().optional(),
  cacheWriteTokens: z.number().optional(),
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
});

export const resultLineSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string(),
  is_error: z.boolean().optional(),
  result: z.string().optional(),
  duration_ms: z.number().optional(),
  session_id: z.string().optional(),
  usage: usageSchema.optional(),
});

export const errorLineSchema = z.looseObject({ type: z.literal('error'), message: z.string() });

export type ResultLine = z.infer<typeof resultLineSchema>;
export type ToolCallLine = z.infer<typeof toolCallLineSchema>;
