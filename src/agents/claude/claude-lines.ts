/** One converter per Claude Code stream line type: validated line in, events out. */
import type { z } from 'zod';
import type {
  AgentErrorKind,
  AgentEvent,
  ErrorEvent,
  ResultEvent,
  RetryEvent,
  UsageEvent,
} from '../agent-event.js';
import { classifyErrorText, errorEventFromText, kindFromHttpStatus } from '../classify-error.js';
import { anthropicUsageEvent, typeOf } from '../stream-json.js';
import { TOOL_OUTPUT_MAX_CHARS, toolSummary, truncate } from '../summarize.js';
import {
  type ApiRetryLine,
  type AssistantLine,
  type ResultLine,
  textBlockSchema,
  toolResultBlockSchema,
  toolUseBlockSchema,
  type UserLine,
} from './claude-schemas.js';

/** Claude Code's error codes on synthetic API-error messages. */
const CODE_KINDS: Readonly<Record<string, AgentErrorKind>> = {
  rate_limit: 'rate-limit',
  authentication_failed: 'auth',
  billing_error: 'auth',
  oauth_org_not_allowed: 'auth',
  invalid_grant: 'auth',
  invalid_request: 'api',
  model_not_found: 'api',
};

function kindFromCode(code: string | undefined, text: string): AgentErrorKind {
  const fromText = classifyErrorText(text);
  if (code === 'server_error') return fromText === 'overloaded' ? 'overloaded' : 'api';
  return (code === undefined ? undefined : CODE_KINDS[code]) ?? fromText;
}

/**
 * Validates a content block only against the schema for its `type`: a
 * failed parse costs far more than a look at `type`, and a stream holds
 * millions of blocks.
 */
function blockOf<T>(block: unknown, type: string, schema: z.ZodType<T>): T | undefined {
  if (typeOf(block) !== type) return undefined;
  const parsed = schema.safeParse(block);
  return parsed.success ? parsed.data : undefined;
}

const textsOf = (blocks: readonly unknown[]): string[] =>
  blocks.flatMap((block) => {
    const text = blockOf(block, 'text', textBlockSchema);
    return text ? [text.text] : [];
  });

/**
 * Claude Code writes API failures as an assistant message of model
 * `<synthetic>`: that text is the CLI's, not the agent's, so it becomes an
 * error and never assistant-text (a signal in it must not count).
 */
export function isSyntheticError(line: AssistantLine): boolean {
  return line.error !== undefined || line.message.model === '<synthetic>';
}

/** `raw`: the line as it came, for an `unknown` event. */
export function syntheticErrorEvents(line: AssistantLine, raw: unknown): AgentEvent[] {
  const text = textsOf(line.message.content).join('\n').trim();
  if (line.error === undefined && classifyErrorText(text) === 'other') return [{ type: 'unknown', raw }];
  return [errorEventFromText(text || `Claude Code error: ${line.error}`, kindFromCode(line.error, text))];
}

export function assistantEvents(line: AssistantLine): AgentEvent[] {
  // A subagent's prose is not the agent's answer; its tool calls are still worth showing.
  const isSubagent = typeof line.parent_tool_use_id === 'string';
  return line.message.content.flatMap((block): AgentEvent[] => {
    const text = blockOf(block, 'text', textBlockSchema);
    if (text) return isSubagent || text.text === '' ? [] : [{ type: 'assistant-text', text: text.text }];
    const tool = blockOf(block, 'tool_use', toolUseBlockSchema);
    if (tool) {
      const { id, name, input } = tool;
      return [{ type: 'tool-started', id, name, summary: toolSummary(input) }];
    }
    return [];
  });
}

export function userEvents(line: UserLine): AgentEvent[] {
  const { content } = line.message;
  if (typeof content === 'string') return [];
  return content.flatMap((block): AgentEvent[] => {
    const result = blockOf(block, 'tool_result', toolResultBlockSchema);
    if (!result) return [];
    const { tool_use_id: id, content: output, is_error: isError } = result;
    const text = typeof output === 'string' ? output : textsOf(output ?? []).join('\n');
    return [
      { type: 'tool-finished', id, ok: isError !== true, output: truncate(text, TOOL_OUTPUT_MAX_CHARS) },
    ];
  });
}

function usageEvent(line: ResultLine): UsageEvent | undefined {
  const { usage } = line;
  if (usage === undefined) return undefined;
  return anthropicUsageEvent(usage, line.total_cost_usd);
}

/** An API failure ends as `subtype: success` with `is_error: true`, or carries the HTTP status. */
export function resultError(line: ResultLine): ErrorEvent | undefined {
  const status = line.api_error_status ?? undefined;
  if (line.is_error !== true || (status === undefined && line.subtype !== 'success')) return undefined;
  const text = line.result ?? line.errors?.join('\n') ?? 'Claude Code reported an error';
  const byText = classifyErrorText(text);
  const kind = status === undefined || byText === 'rate-limit' ? byText : kindFromHttpStatus(status);
  return errorEventFromText(text, kind);
}

export function resultEvents(line: ResultLine): AgentEvent[] {
  const events: AgentEvent[] = [];
  const usage = usageEvent(line);
  if (usage) events.push(usage);
  const result: ResultEvent = { type: 'result', ok: line.subtype === 'success' && line.is_error !== true };
  const text = line.result ?? line.errors?.join('\n');
  if (text !== undefined) result.text = text;
  result.subtype = line.subtype;
  if (line.total_cost_usd !== undefined) result.costUsd = line.total_cost_usd;
  if (line.duration_ms !== undefined) result.durationMs = line.duration_ms;
  if (line.num_turns !== undefined) result.numTurns = line.num_turns;
  if (line.session_id !== undefined) result.sessionId = line.session_id;
  events.push(result);
  return events;
}

export function retryEvent(line: ApiRetryLine): RetryEvent {
  const event: RetryEvent = {
    type: 'retry',
    attempt: line.attempt,
    maxRetries: line.max_retries,
    delayMs: line.retry_delay_ms,
    reason: line.error ?? (line.error_status == null ? 'connection error' : 'error'),
  };
  if (line.error_status != null) event.status = line.error_status;
  return event;
}
