/** What every JSON-lines stream parser shares: one JSON value per line, anything else is garbage. */
import type { StreamParser } from './adapter.js';
import type { AgentEvent, SessionStartedEvent, UsageEvent } from './agent-event.js';

export function parseJsonLine(line: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(line) };
  } catch {
    return { ok: false };
  }
}

/** The `type` field of a JSON object, if it is a string. */
export function typeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('type' in value)) return undefined;
  return typeof value.type === 'string' ? value.type : undefined;
}

/** A parser from a function of one parsed line: blank lines are skipped, non-JSON becomes `garbage`. */
export function jsonLineParser(parseValue: (raw: unknown) => AgentEvent[]): StreamParser {
  return {
    parseLine(line: string): AgentEvent[] {
      const trimmed = line.trim();
      if (trimmed === '') return [];
      const parsed = parseJsonLine(trimmed);
      return parsed.ok ? parseValue(parsed.value) : [{ type: 'garbage', line }];
    },
  };
}

/** The session a Claude-shaped init line (`{type: system, subtype: init, session_id?, model?}`) opens; undefined for any other line. */
export function sessionStartedFrom(
  line:
    | { subtype?: string | undefined; session_id?: string | undefined; model?: string | undefined }
    | undefined,
): AgentEvent[] | undefined {
  if (line === undefined || line.subtype !== 'init') return undefined;
  const event: SessionStartedEvent = { type: 'session-started' };
  if (line.session_id !== undefined) event.sessionId = line.session_id;
  if (line.model !== undefined) event.model = line.model;
  return [event];
}

/** Token counts in the Anthropic API's words, as Claude Code and Amp report them. */
export interface AnthropicUsage {
  input_tokens?: number | undefined;
  output_tokens?: number | undefined;
  cache_read_input_tokens?: number | undefined;
  cache_creation_input_tokens?: number | undefined;
}

export function anthropicUsageEvent(usage: AnthropicUsage, costUsd?: number): UsageEvent {
  const event: UsageEvent = {
    type: 'usage',
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
  };
  if (usage.cache_read_input_tokens !== undefined) event.cacheReadTokens = usage.cache_read_input_tokens;
  if (usage.cache_creation_input_tokens !== undefined)
    event.cacheWriteTokens = usage.cache_creation_input_tokens;
  if (costUsd !== undefined) event.costUsd = costUsd;
  return event;
}
