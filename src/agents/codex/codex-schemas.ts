/**
 * The lines of `codex exec --json`, as far as ralph reads them. Loose
 * objects: Codex adds fields and item types often.
 */
import { z } from 'zod';

export const threadStartedSchema = z.looseObject({
  type: z.literal('thread.started'),
  thread_id: z.string(),
});

export const usageSchema = z.looseObject({
  input_tokens: z.number().optional(),
  cached_input_tokens: z.number().optional(),
  cache_write_input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  reasoning_output_tokens: z.number().optional(),
});

export const turnCompletedSchema = z.looseObject({
  type: z.literal('turn.completed'),
  usage: usageSchema.optional(),
});

export const turnFailedSchema = z.looseObject({
  type: z.literal('turn.failed'),
  error: z.looseObject({ message: z.string() }).optional(),
});

export const streamErrorSchema = z.looseObject({ type: z.literal('error'), message: z.string() });

export const itemLineSchema = z.looseObject({
  type: z.enum(['item.started', 'item.updated', 'item.completed']),
  item: z.looseObject({ id: z.string(), type: z.string() }),
});

export const agentMessageSchema = z.looseObject({ type: z.literal('agent_message'), text: z.string() });

export const commandSchema = z.looseObject({
  type: z.literal('command_execution'),
  command: z.string(),
  aggregated_output: z.string().optional(),
  exit_code: z.number().nullish(),
  status: z.string().optional(),
});

export const fileChangeSchema = z.looseObject({
  type: z.literal('file_change'),
  changes: z.array(z.looseObject({ path: z.string(), kind: z.string().optional() })).default([]),
  status: z.string().optional(),
});

export const mcpCallSchema = z.looseObject({
  type: z.literal('mcp_tool_call'),
  server: z.string().optional(),
  tool: z.string().optional(),
  arguments: z.unknown().optional(),
  result: z.unknown().optional(),
  error: z.looseObject({ message: z.string().optional() }).nullish(),
  status: z.string().optional(),
});

export const webSearchSchema = z.looseObject({ type: z.literal('web_search'), query: z.string().optional() });

export type Usage = z.infer<typeof usageSchema>;
export type Item = z.infer<typeof itemLineSchema>['item'];
