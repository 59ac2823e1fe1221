/**
 * Every wire's conversation, once read into the generic `WireMessage` shape
 * (text, tool_use and tool_result blocks), gives the same `ModelRequest`
 * fields the scripts choose their answer by.
 */
import type { ContentBlock, ModelRequest, WireMessage } from './model-script.js';

const blocksOf = (content: string | ContentBlock[]): ContentBlock[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content;

const textsOf = (content: string | ContentBlock[]): string[] =>
  blocksOf(content).flatMap((b) =>
    b.type === 'text' && typeof b.text === 'string' && b.text !== '' ? [b.text] : [],
  );

/**
 * Context the CLI adds around the prompt as whole blocks:
 * `<environment_context>…</environment_context>`, `<session_context>…`,
 * `<system-reminder>…`. Not part of what the agent was asked.
 */
export function isContextBlock(text: string): boolean {
  return /^<([\w-]+)>[\s\S]*<\/\1>$/.test(text.trim()) || text.trimStart().startsWith('<system-reminder>');
}

/** Adds a message, merging it into the previous one of the same role (one model turn = one assistant message). */
export function pushMessage(messages: WireMessage[], role: string, blocks: ContentBlock[]): void {
  if (blocks.length === 0) return;
  const last = messages.at(-1);
  if (last !== undefined && last.role === role && typeof last.content !== 'string') {
    last.content.push(...blocks);
    return;
  }
  messages.push({ role, content: [...blocks] });
}

export interface ConversationParts {
  index: number;
  body: Record<string, unknown>;
  model: string;
  stream: boolean;
  messages: WireMessage[];
  systemText: string;
  toolNames: string[];
  sessionId?: string;
}

export function buildModelRequest(parts: ConversationParts): ModelRequest {
  const { messages } = parts;
  const users = messages.filter((m) => m.role === 'user');
  const prompts = users.map((m) =>
    textsOf(m.content)
      .filter((t) => !isContextBlock(t))
      .join('\n'),
  );
  const firstUser = users[0];
  const lastUser = users.at(-1);
  const req: ModelRequest = {
    index: parts.index,
    body: parts.body,
    model: parts.model,
    stream: parts.stream,
    messages,
    systemText: parts.systemText,
    toolNames: parts.toolNames,
    isSideCall: parts.toolNames.length === 0,
    toolResultCount: messages.flatMap((m) => blocksOf(m.content)).filter((b) => b.type === 'tool_result')
      .length,
    turn: messages.filter((m) => m.role === 'assistant').length,
    firstUserText: firstUser ? textsOf(firstUser.content).join('\n') : '',
    prompt: prompts.find((p) => p !== '') ?? '',
    lastUserText: lastUser ? textsOf(lastUser.content).join('\n') : '',
  };
  if (parts.sessionId !== undefined) req.sessionId = parts.sessionId;
  return req;
}

/** JSON for a tool call's arguments, however the wire sent them. */
export function parseArguments(value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { ...value };
  if (typeof value !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? { ...parsed } : {};
  } catch {
    return { raw: value };
  }
}

export const DEFAULT_USAGE = { inputTokens: 1200, outputTokens: 80, cacheReadTokens: 0, cacheWriteTokens: 0 };
