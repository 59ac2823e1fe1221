/** Amp `--stream-json` lines -> AgentEvents, reusing the Claude Code line converters. */
import type { StreamParser } from '../adapter.js';
import type { AgentEvent, ResultEvent, UsageEvent } from '../agent-event.js';
import { errorEventFromText } from '../classify-error.js';
import { assistantEvents } from '../claude/claude-lines.js';
import { assistantLineSchema, systemLineSchema, userLineSchema } from '../claude/claude-schemas.js';
import { jsonLineParser, typeOf } from '../stream-json.js';
import { type AmpResult, ampResultSchema, assistantUsageSchema, type MessageUsage } from './amp-schemas.js';
import { ampUserEvents } from './amp-tool-results.js';

export function usageEvent(usage: MessageUsage, costUsd?: number): UsageEvent {
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

function resultEvent(line: AmpResult): ResultEvent {
  const result: ResultEvent = {
    type: 'result',
    ok: line.subtype === 'success' && line.is_error !== true,
    subtype: line.subtype,
  };
  const text = line.result ?? line.error;
  if (text !== undefined) result.text = text;
  if (line.total_cost_usd !== undefined) result.costUsd = line.total_cost_usd;
  if (line.duration_ms !== undefined) result.durationMs = line.duration_ms;
  if (line.num_turns !== undefined) result.numTurns = line.num_turns;
  if (line.session_id !== undefined) result.sessionId = line.session_id;
  return result;
}

/**
 * A parser for one run. Amp reports tokens on each assistant message (so one
 * usage event per model call), and may leave them off the result; the
 * result's usage counts only when no message had any, so nothing is counted twice.
 */
export function createAmpParser(): StreamParser {
  let messageUsageSeen = false;
  return jsonLineParser((raw): AgentEvent[] => {
    const unknown: AgentEvent[] = [{ type: 'unknown', raw }];
    switch (typeOf(raw)) {
      case 'system': {
        const line = systemLineSchema.safeParse(raw);
        if (!line.success || line.data.subtype !== 'init') return unknown;
        const event: AgentEvent = { type: 'session-started' };
        if (line.data.session_id !== undefined) event.sessionId = line.data.session_id;
        if (line.data.model !== undefined) event.model = line.data.model;
        return [event];
      }
      case 'assistant': {
        const line = assistantLineSchema.safeParse(raw);
        if (!line.success) return unknown;
        const usage = assistantUsageSchema.safeParse(raw).data?.message.usage;
        if (usage === undefined) return assistantEvents(line.data);
        messageUsageSeen = true;
        return [...assistantEvents(line.data), usageEvent(usage)];
      }
      case 'user': {
        const line = userLineSchema.safeParse(raw);
        return line.success ? ampUserEvents(line.data) : unknown;
      }
      case 'result': {
        const line = ampResultSchema.safeParse(raw);
        if (!line.success) return unknown;
        const events: AgentEvent[] = [];
        const ok = line.data.subtype === 'success' && line.data.is_error !== true;
        if (!ok)
          events.push(
            errorEventFromText(line.data.error ?? line.data.result ?? `Amp ended with ${line.data.subtype}`),
          );
        if (!messageUsageSeen && line.data.usage)
          events.push(usageEvent(line.data.usage, line.data.total_cost_usd));
        events.push(resultEvent(line.data));
        return events;
      }
      default:
        return unknown;
    }
  });
}
