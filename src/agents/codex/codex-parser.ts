/** `codex exec --json` lines -> AgentEvents. */
import type { StreamParser } from '../adapter.js';
import type { AgentEvent, RetryEvent, UsageEvent } from '../agent-event.js';
import { errorEventFromText } from '../classify-error.js';
import { jsonLineParser, typeOf } from '../stream-json.js';
import { itemEvents } from './codex-items.js';
import {
  itemLineSchema,
  streamErrorSchema,
  threadStartedSchema,
  turnCompletedSchema,
  turnFailedSchema,
  type Usage,
} from './codex-schemas.js';

const RETRY_NOTICE = /^\s*(?:re-?connecting|retrying)\b/i;

/**
 * `Reconnecting... 2/5 (stream disconnected before completion)` as a retry,
 * when it has its count; `Reconnecting... waiting for network (Connection
 * failed: …)`, which Codex repeats for as long as the network is gone, as a
 * retry without one (0 of 0). A bare `Reconnecting...` says too little.
 */
function retryNotice(message: string): RetryEvent | null {
  const count = /(\d+)\s*\/\s*(\d+)/.exec(message);
  const reason = /\((.+)\)\s*$/.exec(message)?.[1];
  if (count === null) {
    return reason === undefined ? null : { type: 'retry', attempt: 0, maxRetries: 0, reason };
  }
  return {
    type: 'retry',
    attempt: Number(count[1]),
    maxRetries: Number(count[2]),
    reason: reason ?? message.trim(),
  };
}

/** OpenAI counts cached tokens inside `input_tokens`; ralph's usage keeps them apart. */
export function usageEvent(usage: Usage): UsageEvent {
  const cached = usage.cached_input_tokens ?? 0;
  const event: UsageEvent = {
    type: 'usage',
    inputTokens: Math.max(0, (usage.input_tokens ?? 0) - cached),
    outputTokens: usage.output_tokens ?? 0,
    cacheReadTokens: cached,
  };
  if (usage.cache_write_input_tokens) event.cacheWriteTokens = usage.cache_write_input_tokens;
  return event;
}

/**
 * A parser for one run. `codex exec` runs one turn: `turn.completed` is its
 * successful end, `turn.failed` or a top-level `error` a failed one. Codex
 * often reports one failure twice (`error`, then `turn.failed` with the same
 * message); it becomes one error event.
 */
export function createCodexParser(): StreamParser {
  const tools = new Map<string, 'started' | 'finished'>();
  const reported = new Set<string>();
  const errorOnce = (message: string): AgentEvent[] => {
    if (reported.has(message)) return [];
    reported.add(message);
    return [errorEventFromText(message)];
  };

  return jsonLineParser((raw): AgentEvent[] => {
    const unknown: AgentEvent[] = [{ type: 'unknown', raw }];
    switch (typeOf(raw)) {
      case 'thread.started': {
        const line = threadStartedSchema.safeParse(raw);
        return line.success ? [{ type: 'session-started', sessionId: line.data.thread_id }] : unknown;
      }
      case 'turn.started':
        return [];
      case 'turn.completed': {
        const line = turnCompletedSchema.safeParse(raw);
        if (!line.success) return unknown;
        const usage = line.data.usage ? [usageEvent(line.data.usage)] : [];
        return [...usage, { type: 'result', ok: true, subtype: 'turn.completed' }];
      }
      case 'turn.failed': {
        const line = turnFailedSchema.safeParse(raw);
        if (!line.success) return unknown;
        const message = line.data.error?.message ?? 'Codex reported a failed turn';
        return [...errorOnce(message), { type: 'result', ok: false, subtype: 'turn.failed', text: message }];
      }
      case 'error': {
        // Also used for retry notices ("Reconnecting... 2/5"); the turn may still succeed.
        const line = streamErrorSchema.safeParse(raw);
        if (!line.success) return unknown;
        if (RETRY_NOTICE.test(line.data.message)) {
          const retry = retryNotice(line.data.message);
          return retry === null ? unknown : [retry];
        }
        return errorOnce(line.data.message);
      }
      case 'item.started':
      case 'item.updated':
      case 'item.completed': {
        const line = itemLineSchema.safeParse(raw);
        if (!line.success) return unknown;
        const events = itemEvents(line.data.type, line.data.item, tools);
        return events ?? unknown;
      }
      default:
        return unknown;
    }
  });
}
