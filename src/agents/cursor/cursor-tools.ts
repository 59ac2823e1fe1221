/** Cursor's tool calls: `{ shellToolCall: { args, result: { success | failure | error | rejected } } }`. */
import type { AgentEvent } from '../agent-event.js';
import { TOOL_OUTPUT_MAX_CHARS, toolSummary, truncate } from '../summarize.js';
import { functionPayloadSchema, type ToolCallLine, toolPayloadSchema } from './cursor-schemas.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const strings = (record: Record<string, unknown>, keys: readonly string[]): string[] =>
  keys.flatMap((key) => {
    const value = record[key];
    return typeof value === 'string' && value !== '' ? [value] : [];
  });

interface ToolCall {
  /** `shell` for `shellToolCall`; a custom tool's own name. */
  name: string;
  args: unknown;
  result?: Record<string, unknown>;
}

export function readToolCall(toolCall: ToolCallLine['tool_call']): ToolCall | undefined {
  for (const [key, value] of Object.entries(toolCall)) {
    if (key === 'function') {
      const fn = functionPayloadSchema.safeParse(value);
      if (fn.success) return { name: fn.data.name, args: fn.data.arguments };
      continue;
    }
    if (!key.endsWith('ToolCall')) continue;
    const payload = toolPayloadSchema.safeParse(value);
    if (!payload.success) continue;
    const call: ToolCall = { name: key.slice(0, -'ToolCall'.length) || key, args: payload.data.args };
    if (payload.data.result !== undefined) call.result = payload.data.result;
    return call;
  }
  return undefined;
}

/** What a finished call says: `success` is the only good outcome; failure, error, rejected are not. */
export function outcome(result: Record<string, unknown> | undefined): { ok: boolean; output?: string } {
  if (result === undefined) return { ok: true };
  const [kind, detail] = Object.entries(result)[0] ?? ['success', undefined];
  const ok = kind === 'success';
  if (typeof detail === 'string') return { ok, output: detail };
  if (!isRecord(detail)) return { ok };
  const texts = ok
    ? strings(detail, ['stdout', 'stderr', 'content', 'output'])
    : strings(detail, ['errorMessage', 'error', 'message', 'reason', 'stderr', 'stdout']);
  return texts.length > 0 ? { ok, output: texts.join('\n') } : { ok };
}

export function toolCallEvents(line: ToolCallLine): AgentEvent[] | undefined {
  const call = readToolCall(line.tool_call);
  if (call === undefined) return undefined;
  const id = line.call_id;
  if (line.subtype === 'started') {
    // Cursor names a file `path`, a shell command `command`.
    return [{ type: 'tool-started', id, name: call.name, summary: toolSummary(call.args) }];
  }
  if (line.subtype === 'completed') {
    const { ok, output } = outcome(call.result);
    return [
      {
        type: 'tool-finished',
        id,
        ok,
        ...(output === undefined ? {} : { output: truncate(output, TOOL_OUTPUT_MAX_CHARS) }),
      },
    ];
  }
  return undefined;
}
