/** OpenAI Responses API (`POST /v1/responses`, SSE) as the fake server reads and writes it, for Codex. */
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { ContentBlock, ErrorReply, MessageReply, ModelRequest, WireMessage } from './model-script.js';
import { type IncomingCall, startSse, type Wire } from './scripted-server.js';
import { buildModelRequest, DEFAULT_USAGE, parseArguments, pushMessage } from './wire-messages.js';

const partSchema = z.looseObject({ type: z.string(), text: z.string().optional() });
const itemSchema = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: z.union([z.string(), z.array(partSchema)]).optional(),
  name: z.string().optional(),
  arguments: z.string().optional(),
  call_id: z.string().optional(),
  output: z.unknown().optional(),
});

export const responsesBodySchema = z.looseObject({
  model: z.string().default('unknown'),
  stream: z.boolean().default(false),
  instructions: z.string().optional(),
  input: z.union([z.string(), z.array(itemSchema)]).default([]),
  tools: z.array(z.looseObject({ type: z.string().optional(), name: z.string().optional() })).default([]),
  prompt_cache_key: z.string().optional(),
});

type Item = z.infer<typeof itemSchema>;

const textBlocks = (content: Item['content']): ContentBlock[] =>
  typeof content === 'string'
    ? [{ type: 'text', text: content }]
    : (content ?? []).flatMap((p) => (p.text === undefined ? [] : [{ type: 'text', text: p.text }]));

const outputText = (output: unknown): string =>
  typeof output === 'string' ? output : JSON.stringify(output ?? '');

function readItems(items: Item[]): { messages: WireMessage[]; system: string[] } {
  const messages: WireMessage[] = [];
  const system: string[] = [];
  for (const item of items) {
    const type = item.type ?? 'message';
    if (type === 'message' && (item.role === 'developer' || item.role === 'system')) {
      system.push(...textBlocks(item.content).map((b) => b.text ?? ''));
    } else if (type === 'message') {
      pushMessage(messages, item.role === 'assistant' ? 'assistant' : 'user', textBlocks(item.content));
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      const input = parseArguments(item.arguments);
      pushMessage(messages, 'assistant', [
        { type: 'tool_use', id: item.call_id ?? '', name: item.name ?? '', input },
      ]);
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      pushMessage(messages, 'user', [
        { type: 'tool_result', tool_use_id: item.call_id ?? '', content: outputText(item.output) },
      ]);
    } else if (type === 'reasoning') {
      pushMessage(messages, 'assistant', [{ type: 'reasoning' }]);
    }
  }
  return { messages, system };
}

export function toResponsesRequest(index: number, call: IncomingCall): ModelRequest | undefined {
  const parsed = responsesBodySchema.safeParse(call.body);
  if (!parsed.success) return undefined;
  const body = parsed.data;
  const items: Item[] =
    typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input;
  const { messages, system } = readItems(items);
  const sessionId = call.headers['session-id'] ?? call.headers.session_id ?? body.prompt_cache_key;
  return buildModelRequest({
    index,
    body: call.body,
    model: body.model,
    stream: body.stream,
    messages,
    systemText: [body.instructions ?? '', ...system].filter((t) => t !== '').join('\n'),
    toolNames: body.tools.flatMap((t) => (t.name ? [t.name] : [])),
    ...(sessionId === undefined ? {} : { sessionId }),
  });
}

function outputItems(reply: MessageReply, index: number): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (reply.text !== undefined) {
    items.push({
      type: 'message',
      id: `msg_fake_${index}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  }
  (reply.toolUses ?? []).forEach((use, i) => {
    items.push({
      type: 'function_call',
      id: `fc_fake_${index}_${i}`,
      call_id: use.id ?? `call_fake_${index}_${i}`,
      name: use.name,
      arguments: JSON.stringify(use.input),
      status: 'completed',
    });
  });
  return items;
}

/** OpenAI counts cached tokens inside `input_tokens`. */
function wireUsage(reply: MessageReply) {
  const u = { ...DEFAULT_USAGE, ...reply.usage };
  return {
    input_tokens: u.inputTokens + u.cacheReadTokens,
    input_tokens_details: { cached_tokens: u.cacheReadTokens },
    output_tokens: u.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.inputTokens + u.cacheReadTokens + u.outputTokens,
  };
}

/** The SSE frames of one response: created, each item added and done, completed. */
export function responsesFrames(reply: MessageReply, req: ModelRequest): string[] {
  const id = `resp_fake_${req.index}`;
  const base = { id, object: 'response', created_at: 1_700_000_000, model: req.model };
  let sequence = 0;
  const frame = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  const items = outputItems(reply, req.index);
  const frames = [frame('response.created', { response: { ...base, status: 'in_progress', output: [] } })];
  items.forEach((item, i) => {
    frames.push(
      frame('response.output_item.added', { output_index: i, item: { ...item, status: 'in_progress' } }),
    );
    frames.push(frame('response.output_item.done', { output_index: i, item }));
  });
  frames.push(
    frame('response.completed', {
      response: { ...base, status: 'completed', output: items, usage: wireUsage(reply) },
    }),
  );
  return frames;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_api_key',
  403: 'permission_denied',
  429: 'rate_limit_exceeded',
  500: 'server_error',
  503: 'server_is_overloaded',
};

export function responsesErrorBody({ error }: ErrorReply): Record<string, unknown> {
  const type = error.type ?? ERROR_TYPES[error.status] ?? 'server_error';
  return { error: { type, code: type, message: error.message ?? `Scripted ${type}`, param: null } };
}

export const responsesWire: Wire = {
  isModelCall: (method, path) => method === 'POST' && path.endsWith('/responses'),
  toModelRequest: toResponsesRequest,
  defaultSideCall: () => ({ text: 'Scripted side reply' }),
  writeReply(res: ServerResponse, reply: MessageReply, req: ModelRequest) {
    startSse(res, { 'x-request-id': `req_fake_${req.index}` });
    for (const frame of responsesFrames(reply, req)) res.write(frame);
    // Codex waits for the stream to close after response.completed.
    res.end();
  },
  errorBody: responsesErrorBody,
};
