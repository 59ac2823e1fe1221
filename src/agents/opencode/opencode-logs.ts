/**
 * OpenCode's own log, on stderr with `--print-logs --log-level WARN`. Its
 * JSON stream says nothing while it retries a failed API request (it does so
 * for ever, backing off to 30 s); its log says, once for each:
 *
 *   timestamp=… level=ERROR run=… message="stream error" providerID=… small=false
 *     agent=build error.error="AI_APICallError: Overloaded"
 *
 * The words are the API's (`Incorrect API key provided`, `Internal server
 * error`) or the connection's (`Cannot connect to API: Unable to connect…`);
 * the HTTP status is not logged, so the cause is read from the words.
 */
import { z } from 'zod';
import type { RetryEvent } from '../agent-event.js';

/** `key=value` and `key="quoted \"value\""` pairs, as OpenCode's logger writes them. */
const PAIR = /([\w.-]+)=("(?:[^"\\]|\\.)*"|\S*)/g;

const unquote = (value: string): string => {
  if (!value.startsWith('"')) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' ? parsed : value.slice(1, -1);
  } catch {
    return value.slice(1, -1);
  }
};

/** One logfmt line as its fields; empty for anything else. */
export function logFields(line: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [, key, value] of line.matchAll(PAIR)) if (key !== undefined) fields[key] = unquote(value ?? '');
  return fields;
}

const streamErrorSchema = z.looseObject({
  level: z.literal('ERROR'),
  message: z.literal('stream error'),
  'error.error': z.string(),
});

/** A failed API request in OpenCode's log, as a retry event: OpenCode retries every one it logs. */
export function opencodeStderrRetry(line: string): RetryEvent | undefined {
  const logged = streamErrorSchema.safeParse(logFields(line));
  if (!logged.success) return undefined;
  // `AI_APICallError: ` names the SDK's class, not the failure.
  const said = logged.data['error.error'].replace(/^AI_\w+Error:\s*/, '').trim();
  return { type: 'retry', attempt: 0, maxRetries: 0, reason: said.slice(0, 300) || 'error' };
}
