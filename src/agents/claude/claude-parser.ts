/** Claude Code `stream-json` lines -> AgentEvents. */
import type { StreamParser } from '../adapter.js';
import type { AgentEvent } from '../agent-event.js';
import { isoFromEpochSeconds } from '../classify-error.js';
import { jsonLineParser, sessionStartedFrom, typeOf } from '../stream-json.js';
import {
  assistantEvents,
  isSyntheticError,
  resultError,
  resultEvents,
  retryEvent,
  syntheticErrorEvents,
  userEvents,
} from './claude-lines.js';
import {
  apiRetryLineSchema,
  assistantLineSchema,
  rateLimitLineSchema,
  resultLineSchema,
  systemLineSchema,
  userLineSchema,
} from './claude-schemas.js';

/** A parser for one run. It remembers whether an API error was already reported, so one failure is one event. */
export function createClaudeParser(): StreamParser {
  let errorReported = false;

  const parseValue = (raw: unknown): AgentEvent[] => {
    const unknown: AgentEvent[] = [{ type: 'unknown', raw }];
    switch (typeOf(raw)) {
      case 'system': {
        const retry = apiRetryLineSchema.safeParse(raw);
        if (retry.success) return [retryEvent(retry.data)];
        return sessionStartedFrom(systemLineSchema.safeParse(raw).data) ?? unknown;
      }
      case 'assistant': {
        const line = assistantLineSchema.safeParse(raw);
        if (!line.success) return unknown;
        if (!isSyntheticError(line.data)) return assistantEvents(line.data);
        if (errorReported) return [];
        const events = syntheticErrorEvents(line.data, raw);
        errorReported = events.some((e) => e.type === 'error');
        return events;
      }
      case 'user': {
        const line = userLineSchema.safeParse(raw);
        return line.success ? userEvents(line.data) : unknown;
      }
      case 'result': {
        const line = resultLineSchema.safeParse(raw);
        if (!line.success) return unknown;
        const error = errorReported ? undefined : resultError(line.data);
        errorReported ||= error !== undefined;
        return error ? [error, ...resultEvents(line.data)] : resultEvents(line.data);
      }
      case 'rate_limit_event': {
        const line = rateLimitLineSchema.safeParse(raw);
        if (!line.success || line.data.rate_limit_info.status !== 'rejected') return unknown;
        const { rateLimitType, resetsAt } = line.data.rate_limit_info;
        const event: AgentEvent = {
          type: 'error',
          kind: 'rate-limit',
          message: `Usage limit reached${rateLimitType ? ` (${rateLimitType})` : ''}`,
        };
        const iso = isoFromEpochSeconds(resetsAt);
        if (iso !== undefined) event.resetsAt = iso;
        if (errorReported) return [];
        errorReported = true;
        return [event];
      }
      default:
        return unknown;
    }
  };

  return jsonLineParser(parseValue);
}
