/** `opencode run --format json` lines -> AgentEvents. */
import type { StreamParser } from '../adapter.js';
import type { AgentEvent, ErrorEvent, UsageEvent } from '../agent-event.js';
import { classifyErrorText, errorEventFromText, kindFromHttpStatus } from '../classify-error.js';
import { jsonLineParser, typeOf } from '../stream-json.js';
import { TOOL_OUTPUT_MAX_CHARS, toolSummary, truncate } from '../summarize.js';
import {
  type ErrorLine,
  errorLineSchema,
  lineBaseSchema,
  type StepFinishLine,
  stepFinishLineSchema,
  textLineSchema,
  toolLineSchema,
} from './opencode-schemas.js';

/** One step's spend. OpenCode counts reasoning apart from output; both are paid for. */
export function stepUsage(part: StepFinishLine['part']): UsageEvent {
  const tokens = part.tokens;
  const event: UsageEvent = {
    type: 'usage',
    inputTokens: tokens?.input ?? 0,
    outputTokens: (tokens?.output ?? 0) + (tokens?.reasoning ?? 0),
    cacheReadTokens: tokens?.cache?.read ?? 0,
    cacheWriteTokens: tokens?.cache?.write ?? 0,
  };
  if (part.cost !== undefined) event.costUsd = part.cost;
  return event;
}

/** The HTTP status decides, except that usage-limit words mean a rate limit whatever the status. */
export function errorFromLine(line: ErrorLine): ErrorEvent {
  const data = line.error?.data;
  const message = data?.message || line.error?.name || 'OpenCode reported an error';
  const byText = classifyErrorText(message);
  const status = data?.statusCode;
  const kind = status === undefined || byText === 'rate-limit' ? byText : kindFromHttpStatus(status);
  return errorEventFromText(message, kind);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** OpenCode's file tools name the path `filePath`. */
const summaryOf = (input: unknown): string =>
  isRecord(input) && typeof input.filePath === 'string' ? toolSummary(input.filePath) : toolSummary(input);

function lineEvents(raw: unknown): AgentEvent[] {
  const unknown: AgentEvent[] = [{ type: 'unknown', raw }];
  switch (typeOf(raw)) {
    case 'step_start':
    case 'reasoning':
      // Reasoning is not the agent's answer: a signal in it must not count.
      return [];
    case 'text': {
      const line = textLineSchema.safeParse(raw);
      if (!line.success) return unknown;
      const { text, synthetic } = line.data.part;
      return text === '' || synthetic === true ? [] : [{ type: 'assistant-text', text }];
    }
    case 'tool_use': {
      // Written once the call has ended, so it both starts and finishes the tool.
      const line = toolLineSchema.safeParse(raw);
      if (!line.success) return unknown;
      const { tool, callID, id, state } = line.data.part;
      const toolId = callID ?? id ?? tool;
      const output = state.output ?? state.error;
      return [
        { type: 'tool-started', id: toolId, name: tool, summary: summaryOf(state.input) },
        {
          type: 'tool-finished',
          id: toolId,
          ok: state.status === 'completed',
          ...(output === undefined ? {} : { output: truncate(output, TOOL_OUTPUT_MAX_CHARS) }),
        },
      ];
    }
    case 'step_finish': {
      // One model step, not the run: a step that ends with reason `stop` may be followed by more.
      const line = stepFinishLineSchema.safeParse(raw);
      return line.success ? [stepUsage(line.data.part)] : unknown;
    }
    case 'error': {
      const line = errorLineSchema.safeParse(raw);
      return line.success ? [errorFromLine(line.data)] : unknown;
    }
    default:
      return unknown;
  }
}

/**
 * A parser for one run. OpenCode writes no start or end line of its own: the
 * session starts with the first line that names it, and the run ends when the
 * process exits (its exit code, not a result line, tells how).
 */
export function createOpencodeParser(): StreamParser {
  let sessionSeen = false;
  return jsonLineParser((raw) => {
    const events = lineEvents(raw);
    const base = lineBaseSchema.safeParse(raw);
    if (sessionSeen || !base.success || base.data.sessionID === undefined) return events;
    sessionSeen = true;
    return [{ type: 'session-started', sessionId: base.data.sessionID }, ...events];
  });
}
