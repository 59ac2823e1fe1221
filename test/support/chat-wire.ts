/** OpenAI Chat Completions (`POST /v1/chat/completions`, SSE ending in `[DONE]`), for OpenCode. */
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { ContentBlock, ErrorReply, MessageReply, ModelRequest, WireMessage } from './model-script.js';
import { type IncomingCall, sendJson, startSse, type Wire } from './scripted-server.js';
import { buildModelRequest, DEFAULT_USAGE, parseArguments, pushMessage } from './wire-messages.js';

const contentSchema = z
  .union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))])
  .nullish();
const messageSchema = z.looseObject({
  role: z.string(),
  content: contentSchema,
  tool_calls: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }),
      }),
    )
    .optional(),
  tool_call_id: z.string().optional(),
});

export const chatBodySchema = z.looseObject({
  model: z.string().default('unknown'),
  stream: z.boolean().default(false),
  messages: z.array(messageSchema).default([]),
  tools: z
    .array(z.looseObject({ function: z.looseObject({ name: z.string().optional() }).optional() }))
    .default([]),
});

type ChatMessage = z.infer<typeof messageSchema>;

const textBlocks = (content: ChatMessage['content']): ContentBlock[] =>
  typeof content === 'string'
    ? content === ''
      ? []
      : [{ type: 'text', text: content }]
    : (content ?? []).flatMap((p) => (p.text === undefined ? [] : [{ type: 'text', text: p.text }]));

function readMessages(chat: ChatMessage[]): { messages: WireMessage[]; system: string[] } {
  const messages: WireMessage[] = [];
  const system: string[] = [];
  for (const m of chat) {
    if (m.role === 'system' || m.role === 'developer') {
      system.push(...textBlocks(m.content).map((b) => b.text ?? ''));
    } else if (m.role === 'assistant') {
      const calls: ContentBlock[] = (m.tool_calls ?? []).map((c) => ({
        type: 'tool_use',
        id: c.id ?? '',
        name: c.function.name ?? '',
        input: parseArguments(c.function.arguments),
      }));
      // An assistant message always marks a turn, even an empty one.
      pushMessage(messages, 'assistant', [...textBlocks(m.content), ...calls, { type: 'turn' }]);
    } else if (m.role === 'tool') {
      const output = textBlocks(m.content)
        .map((b) => b.text)
        .join('\n');
      pushMessage(messages, 'user', [
        { type: 'tool_result', tool_use_id: m.tool_call_id ?? '', content: output },
      ]);
    } else {
      pushMessage(messages, 'user', textBlocks(m.content));
    }
  }
  return { messages, system };
}

export function toChatRequest(index: number, call: IncomingCall): ModelRequest | undefined {
  const parsed = chatBodySchema.safeParse(call.body);
  if (!parsed.success) return undefined;
  const body = parsed.data;
  const { messages, system } = readMessages(body.messages);
  const sessionId = call.headers['x-session-id'];
  return buildModelRequest({
    index,
    body: call.body,
    model: body.model,
    stream: body.stream,
    messages,
    systemText: system.join('\n'),
    toolNames: body.tools.flatMap((t) => (t.function?.name ? [t.function.name] : [])),
    ...(sessionId === undefined ? {} : { sessionId }),
  });
}

function wireUsage(reply: MessageReply) {
  const u = { ...DEFAULT_USAGE, ...reply.usage };
  return {
    prompt_tokens: u.inputTokens + u.cacheReadTokens,
    completion_tokens: u.outputTokens,
    total_tokens: u.inputTokens + u.cacheReadTokens + u.outputTokens,
    prompt_tokens_details: { cached_tokens: u.cacheReadTokens },
  };
}

const finishReason = (reply: MessageReply) => ((reply.toolUses ?? []).length > 0 ? 'tool_calls' : 'stop');

const toolCalls = (reply: MessageReply, index: number) =>
  (reply.toolUses ?? []).map((use, i) => ({
    index: i,
    id: use.id ?? `call_fake_${index}_${i}`,
    type: 'function',
    function: { name: use.name, arguments: JSON.stringify(use.input) },
  }));

/** The `data:` lines of one streamed completion: role and text, tool calls, finish, usage, `[DONE]`. */
export function chatFrames(reply: MessageReply, req: ModelRequest): string[] {
  const base = {
    id: `chatcmpl-fake-${req.index}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: req.model,
  };
  const data = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    data({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const frames = [chunk({ role: 'assistant', content: reply.text ?? '' })];
  const calls = toolCalls(reply, req.index);
  if (calls.length > 0) frames.push(chunk({ tool_calls: calls }));
  frames.push(chunk({}, finishReason(reply)));
  frames.push(data({ ...base, choices: [], usage: wireUsage(reply) }));
  frames.push('data: [DONE]\n\n');
  return frames;
}

export function chatCompletion(reply: MessageReply, req: ModelRequest): Record<string, unknown> {
  const calls = toolCalls(reply, req.index).map(({ index: _index, ...call }) => call);
  return {
    id: `chatcmpl-fake-${req.index}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: req.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        finish_reason: finishReason(reply),
      },
    ],
    usage: wireUsage(reply),
  };
}

export function chatErrorBody({ error }: ErrorReply): Record<string, unknown> {
  const type = error.type ?? (error.status === 429 ? 'rate_limit_exceeded' : 'server_error');
  return { error: { message: error.message ?? `Scripted ${type}`, type, code: type, param: null } };
}

export const chatWire: Wire = {
  isModelCall: (method, path) => method === 'POST' && path.endsWith('/chat/completions'),
  toModelRequest: toChatRequest,
  defaultSideCall: () => ({ text: 'Scripted title' }),
  writeReply(res: ServerResponse, reply: MessageReply, req: ModelRequest) {
    if (!req.stream) {
      sendJson(res, 200, chatCompletion(reply, req));
      return;
    }
    startSse(res);
    for (const frame of chatFrames(reply, req)) res.write(frame);
    res.end();
  },
  errorBody: chatErrorBody,
};
