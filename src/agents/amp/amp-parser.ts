/** Amp `--stream-json` lines -> AgentEvents, reusing the Claude Code line converters. */
import type { StreamParser } from '../adapter.js';
import type { AgentEvent, ResultEvent } from '../agent-event.js';
import { errorEventFromText } from '../classify-error.js';
import { assistantEvents } from '../claude/claude-lines.js';
import { assistantLineSchema, systemLineSchema, userLineSchema } from '../claude/claude-schemas.js';
import { anthropicUsageEvent, jsonLineParser, sessionStartedFrom, typeOf } from '../stream-json.js';
import { type AmpResult, ampResultSchema, assistantUsageSchema } from './amp-schemas.js';
import { ampUserEvents } from './amp-tool-results.js';

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
        return sessionStartedFrom(systemLineSchema.safeParse(raw).data) ?? unknown;
      }
      case 'assistant': {
        const line = assistantLineSchema.safeParse(raw);
        if (!line.success) return unknown;
        const usage = assistantUsageSchema.safeParse(raw).data?.message.usage;
        if (usage === undefined) return assistantEvents(line.data);
        messageUsageSeen = true;
        return [...assistantEvents(line.data), anthropicUsageEvent(usage)];
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
          events.push(anthropicUsageEvent(line.data.usage, line.data.total_cost_usd));
        events.push(resultEvent(line.data));
        return events;
      }
      default:
        return unknown;
    }
  });
}
