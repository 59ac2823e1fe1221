/** `gemini --output-format stream-json` lines -> AgentEvents. */
import type { StreamParser } from '../adapter.js';
import type { AgentEvent, RetryEvent, UsageEvent } from '../agent-event.js';
import { errorEventFromText } from '../classify-error.js';
import { jsonLineParser, typeOf } from '../stream-json.js';
import { TOOL_OUTPUT_MAX_CHARS, toolSummary, truncate } from '../summarize.js';
import { apiErrorMessage, apiErrorWords } from './gemini-api-error.js';
import {
  errorLineSchema,
  initLineSchema,
  messageLineSchema,
  type ResultLine,
  resultLineSchema,
  type Stats,
  toolResultLineSchema,
  toolUseLineSchema,
} from './gemini-schemas.js';

export function usageFromStats(stats: Stats): UsageEvent {
  const cached = stats.cached ?? 0;
  return {
    type: 'usage',
    inputTokens: stats.input ?? Math.max(0, (stats.input_tokens ?? 0) - cached),
    outputTokens: stats.output_tokens ?? 0,
    cacheReadTokens: cached,
  };
}

function resultEvents(line: ResultLine): AgentEvent[] {
  const events: AgentEvent[] = [];
  if (line.stats) events.push(usageFromStats(line.stats));
  const ok = line.status === 'success';
  const result: AgentEvent = { type: 'result', ok, subtype: line.status };
  if (line.error) result.text = apiErrorWords(line.error.message);
  if (line.stats?.duration_ms !== undefined) result.durationMs = line.stats.duration_ms;
  events.push(result);
  return events;
}

/**
 * A parser for one run. Gemini streams an answer's text as several `delta`
 * lines, and a signal may be cut between two of them; the parser joins
 * consecutive deltas and reports them as one text when the next line of
 * another kind arrives (the CLI always ends with `result`).
 */
export function createGeminiParser(): StreamParser {
  let pending = '';
  const reported = new Set<string>();
  const flush = (): AgentEvent[] => {
    const text = pending;
    pending = '';
    return text === '' ? [] : [{ type: 'assistant-text', text }];
  };
  const errorOnce = (text: string): AgentEvent[] => {
    const message = apiErrorWords(text);
    if (reported.has(message)) return [];
    reported.add(message);
    return [errorEventFromText(message)];
  };

  const parseValue = (raw: unknown): AgentEvent[] => {
    const unknown: AgentEvent[] = [{ type: 'unknown', raw }];
    switch (typeOf(raw)) {
      case 'init': {
        const line = initLineSchema.safeParse(raw);
        if (!line.success) return unknown;
        const event: AgentEvent = { type: 'session-started' };
        if (line.data.session_id !== undefined) event.sessionId = line.data.session_id;
        if (line.data.model !== undefined) event.model = line.data.model;
        return [event];
      }
      case 'message': {
        const line = messageLineSchema.safeParse(raw);
        if (!line.success) return unknown;
        // The user message is the prompt echoed back: never a signal.
        if (line.data.role !== 'assistant') return [];
        pending += line.data.content;
        return line.data.delta === true ? [] : flush();
      }
      case 'tool_use': {
        const line = toolUseLineSchema.safeParse(raw);
        if (!line.success) return unknown;
        const { tool_id: id, tool_name: name, parameters } = line.data;
        return [{ type: 'tool-started', id, name, summary: toolSummary(parameters) }];
      }
      case 'tool_result': {
        const line = toolResultLineSchema.safeParse(raw);
        if (!line.success) return unknown;
        const { tool_id: id, status, output, error } = line.data;
        const text = output ?? error?.message;
        return [
          {
            type: 'tool-finished',
            id,
            ok: status === 'success',
            ...(text === undefined ? {} : { output: truncate(text, TOOL_OUTPUT_MAX_CHARS) }),
          },
        ];
      }
      case 'error': {
        const line = errorLineSchema.safeParse(raw);
        // Warnings (e.g. a loop detected and stopped) do not end the run.
        if (!line.success || line.data.severity === 'warning') return unknown;
        return errorOnce(line.data.message);
      }
      case 'result': {
        const line = resultLineSchema.safeParse(raw);
        if (!line.success) return unknown;
        const error =
          line.data.status !== 'success' && line.data.error ? errorOnce(line.data.error.message) : [];
        return [...error, ...resultEvents(line.data)];
      }
      default:
        return unknown;
    }
  };

  return jsonLineParser((raw) => {
    const events = parseValue(raw);
    // Any line but a text delta ends the text before it.
    const isDelta = typeOf(raw) === 'message' && events.length === 0;
    return isDelta ? events : [...flush(), ...events];
  });
}

const STDERR_RETRY = /^Attempt (\d+) failed(?: with status (\d+))?\. Retrying with backoff\.\.\.\s*(.*)$/;

/** `Attempt 2 failed with status 503. Retrying with backoff... _ApiError: {…}` from Gemini CLI's stderr. */
export function geminiStderrRetry(line: string): RetryEvent | undefined {
  const match = STDERR_RETRY.exec(line.trim());
  if (match === null) return undefined;
  const event: RetryEvent = {
    type: 'retry',
    attempt: Number(match[1]),
    maxRetries: 0,
    reason: apiErrorMessage(match[3] ?? '').slice(0, 300) || 'error',
  };
  if (match[2] !== undefined) event.status = Number(match[2]);
  return event;
}
