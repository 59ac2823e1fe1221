/** Anthropic Messages API wire shapes the fake server reads and writes. */
import { z } from 'zod';
import type {
  ContentBlock,
  MessageReply,
  ModelRequest,
  StopReason,
  Usage,
  WireMessage,
} from './model-script.js';

const blockSchema = z.looseObject({ type: z.string(), text: z.string().optional() });
const messageSchema = z.object({
  role: z.string(),
  content: z.union([z.string(), z.array(blockSchema)]),
});

export const messagesBodySchema = z.looseObject({
  model: z.string().default('unknown'),
  stream: z.boolean().default(false),
  messages: z.array(messageSchema).default([]),
  system: z.union([z.string(), z.array(blockSchema)]).optional(),
  tools: z.array(z.looseObject({ name: z.string().optional() })).optional(),
  metadata: z.looseObject({ user_id: z.string().optional() }).optional(),
});
export type MessagesBody = z.infer<typeof messagesBodySchema>;

const blocksOf = (content: string | ContentBlock[]): ContentBlock[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content;

const textOf = (content: string | ContentBlock[]): string =>
  blocksOf(content)
    .map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .filter((t) => t !== '')
    .join('\n');

/** Claude Code puts `..._session_<uuid>` (or a JSON object with `session_id`) in metadata.user_id. */
export function sessionIdFrom(userId: string | undefined): string | undefined {
  if (userId === undefined) return undefined;
  const json = /"session_id"\s*:\s*"([^"]+)"/.exec(userId);
  if (json?.[1]) return json[1];
  const plain = /session_([0-9a-f-]{8,})/i.exec(userId);
  return plain?.[1];
}

const promptOf = (content: string | ContentBlock[]): string =>
  blocksOf(content)
    .flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
    .filter((t) => !t.trimStart().startsWith('<system-reminder>'))
    .join('\n');

export function toModelRequest(
  index: number,
  raw: Record<string, unknown>,
  body: MessagesBody,
  headerSessionId?: string,
): ModelRequest {
  const messages: WireMessage[] = body.messages;
  const users = messages.filter((m) => m.role === 'user');
  const toolResultCount = messages
    .flatMap((m) => blocksOf(m.content))
    .filter((b) => b.type === 'tool_result').length;
  const firstUser = users[0];
  const lastUser = users[users.length - 1];
  const req: ModelRequest = {
    index,
    body: raw,
    model: body.model,
    stream: body.stream,
    messages,
    systemText: body.system === undefined ? '' : textOf(body.system),
    toolNames: (body.tools ?? []).flatMap((t) => (t.name ? [t.name] : [])),
    isSideCall: (body.tools ?? []).length === 0,
    toolResultCount,
    turn: messages.filter((m) => m.role === 'assistant').length,
    firstUserText: firstUser ? textOf(firstUser.content) : '',
    prompt: firstUser ? promptOf(firstUser.content) : '',
    lastUserText: lastUser ? textOf(lastUser.content) : '',
  };
  const sessionId = sessionIdFrom(body.metadata?.user_id) ?? headerSessionId;
  if (sessionId !== undefined) req.sessionId = sessionId;
  return req;
}

const DEFAULT_USAGE: Usage = { inputTokens: 1200, outputTokens: 80, cacheReadTokens: 0, cacheWriteTokens: 0 };

interface OutBlock {
  start: Record<string, unknown>;
  delta: Record<string, unknown> | undefined;
  full: Record<string, unknown>;
}

function outBlocks(reply: MessageReply, index: number): OutBlock[] {
  const blocks: OutBlock[] = [];
  if (reply.text !== undefined) {
    blocks.push({
      start: { type: 'text', text: '' },
      delta: { type: 'text_delta', text: reply.text },
      full: { type: 'text', text: reply.text },
    });
  }
  (reply.toolUses ?? []).forEach((use, i) => {
    const id = use.id ?? `toolu_fake_${index}_${i}`;
    blocks.push({
      start: { type: 'tool_use', id, name: use.name, input: {} },
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(use.input) },
      full: { type: 'tool_use', id, name: use.name, input: use.input },
    });
  });
  return blocks;
}

function stopReasonOf(reply: MessageReply): StopReason {
  return reply.stopReason ?? ((reply.toolUses ?? []).length > 0 ? 'tool_use' : 'end_turn');
}

function wireUsage(reply: MessageReply) {
  const u = { ...DEFAULT_USAGE, ...reply.usage };
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_read_input_tokens: u.cacheReadTokens,
    cache_creation_input_tokens: u.cacheWriteTokens,
  };
}

/** A complete non-streaming message. */
export function jsonMessage(reply: MessageReply, model: string, index: number): Record<string, unknown> {
  return {
    id: `msg_fake_${index}`,
    type: 'message',
    role: 'assistant',
    model,
    content: outBlocks(reply, index).map((b) => b.full),
    stop_reason: stopReasonOf(reply),
    stop_sequence: null,
    usage: wireUsage(reply),
  };
}

/** The SSE frames of one streamed message, in the order the real API sends them. */
export function sseFrames(reply: MessageReply, model: string, index: number): string[] {
  const usage = wireUsage(reply);
  const frame = (event: string, data: Record<string, unknown>) =>
    `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;
  const frames = [
    frame('message_start', {
      message: {
        id: `msg_fake_${index}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
  ];
  outBlocks(reply, index).forEach((block, i) => {
    frames.push(frame('content_block_start', { index: i, content_block: block.start }));
    if (block.delta) frames.push(frame('content_block_delta', { index: i, delta: block.delta }));
    frames.push(frame('content_block_stop', { index: i }));
  });
  frames.push(
    frame('message_delta', {
      delta: { stop_reason: stopReasonOf(reply), stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
    frame('message_stop', {}),
  );
  return frames;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function errorBody(status: number, type?: string, message?: string): Record<string, unknown> {
  const errorType = type ?? ERROR_TYPES[status] ?? 'api_error';
  return { type: 'error', error: { type: errorType, message: message ?? `Scripted ${errorType}` } };
}
