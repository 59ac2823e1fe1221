/** `cursor-agent -p --output-format stream-json` lines -> AgentEvents. */
import type { StreamParser } from '../adapter.js';
import type { AgentEvent, ResultEvent, UsageEvent } from '../agent-event.js';
import { errorEventFromText } from '../classify-error.js';
import { jsonLineParser, sessionStartedFrom, typeOf } from '../stream-json.js';
import {
  assistantLineSchema,
  errorLineSchema,
  type ResultLine,
  resultLineSchema,
  systemLineSchema,
  toolCallLineSchema,
} from './cursor-schemas.js';
import { toolCallEvents } from './cursor-tools.js';

function usageOf(line: ResultLine): UsageEvent | undefined {
  const usage = line.usage;
  if (usage === undefined) return undefined;
  const event: UsageEvent = {
    type: 'usage',
    inputTokens: usage.inputTokens ?? usage.input_tokens ?? 0,
    outputTokens: usage.outputTokens ?? usage.output_tokens ?? 0,
  };
  if (usage.cacheReadTokens !== undefined) event.cacheReadTokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) event.cacheWriteTokens = usage.cacheWriteTokens;
  return event;
}

function resultEvents(line: ResultLine): AgentEvent[] {
  const ok = line.subtype === 'success' && line.is_error !== true;
  const result: ResultEvent = { type: 'result', ok, subtype: line.subtype };
  // The whole run's text joined: already reported message by message, so not assistant text again.
  if (line.result !== undefined) result.text = line.result;
  if (line.duration_ms !== undefined) result.durationMs = line.duration_ms;
  if (line.session_id !== undefined) result.sessionId = line.session_id;
  const usage = usageOf(line);
  const error = ok ? [] : [errorEventFromText(line.result || `Cursor ended with ${line.subtype}`)];
  return [...error, ...(usage ? [usage] : []), result];
}

/** A parser for one run. Without `--stream-partial-output`, each assistant line is one whole message. */
export function createCursorParser(): StreamParser {
  return jsonLineParser((raw): AgentEvent[] => {
    const unknown: AgentEvent[] = [{ type: 'unknown', raw }];
    switch (typeOf(raw)) {
      case 'system': {
        return sessionStartedFrom(systemLineSchema.safeParse(raw).data) ?? unknown;
      }
      case 'user':
      case 'thinking':
        // The prompt echoed back, and reasoning: neither is the agent's answer.
        return [];
      case 'assistant': {
        const line = assistantLineSchema.safeParse(raw);
        if (!line.success) return unknown;
        const text = line.data.message.content.map((block) => block.text ?? '').join('');
        return text === '' ? [] : [{ type: 'assistant-text', text }];
      }
      case 'tool_call': {
        const line = toolCallLineSchema.safeParse(raw);
        return (line.success ? toolCallEvents(line.data) : undefined) ?? unknown;
      }
      case 'result': {
        const line = resultLineSchema.safeParse(raw);
        return line.success ? resultEvents(line.data) : unknown;
      }
      case 'error': {
        const line = errorLineSchema.safeParse(raw);
        return line.success ? [errorEventFromText(line.data.message)] : unknown;
      }
      default:
        return unknown;
    }
  });
}
