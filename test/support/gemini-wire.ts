/**
 * The Gemini API (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse`
 * and `:generateContent`) as the fake server reads and writes it, for Gemini CLI.
 */
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type {
  ContentBlock,
  ErrorReply,
  MessageReply,
  ModelRequest,
  Script,
  WireMessage,
} from './model-script.js';
import { type IncomingCall, sendJson, startSse, type Wire } from './scripted-server.js';
import { buildModelRequest, DEFAULT_USAGE, pushMessage } from './wire-messages.js';

const partSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  functionCall: z.looseObject({ name: z.string(), args: z.unknown(), id: z.string().optional() }).optional(),
  functionResponse: z
    .looseObject({ name: z.string(), response: z.unknown(), id: z.string().optional() })
    .optional(),
});
const contentSchema = z.looseObject({ role: z.string().optional(), parts: z.array(partSchema).default([]) });

export const geminiBodySchema = z.looseObject({
  contents: z.array(contentSchema).default([]),
  systemInstruction: contentSchema.optional(),
  tools: z
    .array(z.looseObject({ functionDeclarations: z.array(z.looseObject({ name: z.string() })).optional() }))
    .default([]),
  generationConfig: z
    .looseObject({ responseMimeType: z.string().optional(), responseJsonSchema: z.unknown().optional() })
    .optional(),
});

type Part = z.infer<typeof partSchema>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function blocksOf(parts: Part[]): ContentBlock[] {
  return parts.flatMap((p): ContentBlock[] => {
    if (p.functionCall)
      return [
        {
          type: 'tool_use',
          id: p.functionCall.id ?? '',
          name: p.functionCall.name,
          input: p.functionCall.args,
        },
      ];
    if (p.functionResponse) {
      const response = p.functionResponse.response;
      const output =
        isRecord(response) && typeof response.output === 'string'
          ? response.output
          : JSON.stringify(response);
      return [{ type: 'tool_result', tool_use_id: p.functionResponse.id ?? '', content: output }];
    }
    if (p.text !== undefined && p.thought !== true) return [{ type: 'text', text: p.text }];
    return [];
  });
}

/** `/v1beta/models/gemini-x:streamGenerateContent` -> model and method. */
export function modelPath(path: string): { model: string; method: string } | undefined {
  const match = /\/models\/([^/:]+):(\w+)$/.exec(path);
  return match?.[1] && match[2] ? { model: match[1], method: match[2] } : undefined;
}

export function toGeminiRequest(index: number, call: IncomingCall): ModelRequest | undefined {
  const parsed = geminiBodySchema.safeParse(call.body);
  const target = modelPath(call.path);
  if (!parsed.success || target === undefined) return undefined;
  const body = parsed.data;
  const messages: WireMessage[] = [];
  for (const content of body.contents) {
    pushMessage(messages, content.role === 'model' ? 'assistant' : 'user', blocksOf(content.parts));
  }
  return buildModelRequest({
    index,
    body: call.body,
    model: target.model,
    stream: target.method === 'streamGenerateContent',
    messages,
    systemText: (body.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('\n'),
    toolNames: body.tools.flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name)),
  });
}

/** A value that satisfies a (Gemini or JSON) schema: side calls such as model routing ask for JSON. */
export function sampleForSchema(schema: unknown): unknown {
  if (!isRecord(schema)) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (String(schema.type ?? '').toLowerCase()) {
    case 'object': {
      const properties = isRecord(schema.properties) ? schema.properties : {};
      return Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, sampleForSchema(value)]),
      );
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 10;
    case 'boolean':
      return false;
    case 'string':
      return 'scripted';
    default:
      return null;
  }
}

/** Side calls answer plain text, or a JSON value of the schema they ask for. */
export const geminiSideCall: Script = (req) => {
  const config = geminiBodySchema.safeParse(req.body).data?.generationConfig;
  if (config?.responseMimeType === 'application/json')
    return { text: JSON.stringify(sampleForSchema(config.responseJsonSchema)) };
  return { text: 'Scripted side reply' };
};

function usageMetadata(reply: MessageReply) {
  const u = { ...DEFAULT_USAGE, ...reply.usage };
  return {
    promptTokenCount: u.inputTokens + u.cacheReadTokens,
    candidatesTokenCount: u.outputTokens,
    totalTokenCount: u.inputTokens + u.cacheReadTokens + u.outputTokens,
    cachedContentTokenCount: u.cacheReadTokens,
  };
}

const functionCalls = (reply: MessageReply): Record<string, unknown>[] =>
  (reply.toolUses ?? []).map((use) => ({ functionCall: { name: use.name, args: use.input } }));

/**
 * The chunks of one streamed answer. Text comes in two chunks, as the real API
 * splits it, so clients that join deltas are exercised; the last chunk holds
 * the function calls, the finish reason and the usage.
 */
export function geminiChunks(reply: MessageReply, req: ModelRequest): Record<string, unknown>[] {
  const text = reply.text ?? '';
  const cut = Math.ceil(text.length / 2);
  const pieces = text.length > 1 ? [text.slice(0, cut), text.slice(cut)] : text === '' ? [] : [text];
  const candidate = (parts: Record<string, unknown>[], last: boolean) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    ...(last ? { usageMetadata: usageMetadata(reply) } : {}),
    modelVersion: req.model,
    responseId: `resp_fake_${req.index}`,
  });
  const textParts = pieces.map((piece) => [{ text: piece }]);
  const calls = functionCalls(reply);
  const bodies = calls.length > 0 ? [...textParts, calls] : textParts;
  if (bodies.length === 0) bodies.push([{ text: '' }]);
  return bodies.map((parts, i) => candidate(parts, i === bodies.length - 1));
}

/** A whole answer, for `:generateContent`. */
export function geminiResponse(reply: MessageReply, req: ModelRequest): Record<string, unknown> {
  const parts = [...(reply.text ? [{ text: reply.text }] : []), ...functionCalls(reply)];
  return {
    candidates: [
      {
        content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] },
        index: 0,
        finishReason: 'STOP',
      },
    ],
    usageMetadata: usageMetadata(reply),
    modelVersion: req.model,
    responseId: `resp_fake_${req.index}`,
  };
}

const STATUSES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export function geminiErrorBody({ error }: ErrorReply): Record<string, unknown> {
  const status = error.type ?? STATUSES[error.status] ?? 'INTERNAL';
  return { error: { code: error.status, message: error.message ?? `Scripted ${status}`, status } };
}

export const geminiWire: Wire = {
  isModelCall: (method, path) => method === 'POST' && modelPath(path) !== undefined,
  toModelRequest: toGeminiRequest,
  defaultSideCall: geminiSideCall,
  writeReply(res: ServerResponse, reply: MessageReply, req: ModelRequest) {
    if (!req.stream) {
      sendJson(res, 200, geminiResponse(reply, req));
      return;
    }
    startSse(res);
    for (const chunk of geminiChunks(reply, req)) res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    res.end();
  },
  errorBody: geminiErrorBody,
};
