/** Codex thread items (`item.started` / `item.completed`) -> AgentEvents, one converter per item type. */
import type { AgentEvent } from '../agent-event.js';
import { oneLine, SUMMARY_MAX_CHARS, TOOL_OUTPUT_MAX_CHARS, toolSummary, truncate } from '../summarize.js';
import {
  agentMessageSchema,
  commandSchema,
  fileChangeSchema,
  type Item,
  mcpCallSchema,
  webSearchSchema,
} from './codex-schemas.js';
import { unwrapShell } from './shell-words.js';

interface Tool {
  name: string;
  summary: string;
  /** Undefined while the tool runs. */
  finished?: { ok: boolean; output?: string };
}

const isDone = (status: string | undefined, phase: string) =>
  phase === 'item.completed' || (status !== undefined && status !== 'in_progress');

function toolOf(item: Item, phase: string): Tool | undefined {
  const command = commandSchema.safeParse(item);
  if (command.success) {
    const { status, exit_code: exitCode, aggregated_output: output } = command.data;
    const tool: Tool = {
      name: 'shell',
      summary: truncate(oneLine(unwrapShell(command.data.command)), SUMMARY_MAX_CHARS),
    };
    if (isDone(status, phase))
      tool.finished = { ok: status === 'completed' && (exitCode ?? 0) === 0, output: output ?? '' };
    return tool;
  }
  const change = fileChangeSchema.safeParse(item);
  if (change.success) {
    const paths = change.data.changes.map((c) => (c.kind ? `${c.kind} ${c.path}` : c.path)).join(', ');
    const tool: Tool = { name: 'file_change', summary: truncate(paths, SUMMARY_MAX_CHARS) };
    if (isDone(change.data.status, phase)) tool.finished = { ok: change.data.status !== 'failed' };
    return tool;
  }
  const mcp = mcpCallSchema.safeParse(item);
  if (mcp.success) {
    const { server, tool: name, status, error, result } = mcp.data;
    const tool: Tool = {
      name: [server, name].filter(Boolean).join('.') || 'mcp',
      summary: toolSummary(mcp.data.arguments),
    };
    if (isDone(status, phase)) {
      const output = error?.message ?? (result === undefined ? undefined : JSON.stringify(result));
      tool.finished = { ok: status !== 'failed' && !error, ...(output === undefined ? {} : { output }) };
    }
    return tool;
  }
  const search = webSearchSchema.safeParse(item);
  if (search.success) {
    const tool: Tool = {
      name: 'web_search',
      summary: truncate(oneLine(search.data.query ?? ''), SUMMARY_MAX_CHARS),
    };
    if (phase === 'item.completed') tool.finished = { ok: true };
    return tool;
  }
  return undefined;
}

/**
 * Events for one item line, or undefined for an item ralph does not model.
 * `seen` remembers each tool item's state, so a tool seen only on completion
 * still gets its `tool-started` first, and one that finishes is reported once.
 */
export function itemEvents(
  phase: string,
  item: Item,
  seen: Map<string, 'started' | 'finished'>,
): AgentEvent[] | undefined {
  if (item.type === 'agent_message') {
    if (phase !== 'item.completed') return [];
    const message = agentMessageSchema.safeParse(item);
    return message.success && message.data.text !== ''
      ? [{ type: 'assistant-text', text: message.data.text }]
      : [];
  }
  // Reasoning is not the agent's answer: a signal in it must not count. Plans are progress only.
  if (item.type === 'reasoning' || item.type === 'todo_list') return [];
  // Warnings such as unknown model metadata; a fatal problem comes as `error` / `turn.failed`.
  if (item.type === 'error') return undefined;
  const tool = toolOf(item, phase);
  if (tool === undefined) return undefined;
  const events: AgentEvent[] = [];
  const state = seen.get(item.id);
  if (state === 'finished') return [];
  if (state === undefined) {
    seen.set(item.id, 'started');
    events.push({ type: 'tool-started', id: item.id, name: tool.name, summary: tool.summary });
  }
  if (tool.finished) {
    seen.set(item.id, 'finished');
    const { ok, output } = tool.finished;
    events.push({
      type: 'tool-finished',
      id: item.id,
      ok,
      ...(output === undefined ? {} : { output: truncate(output, TOOL_OUTPUT_MAX_CHARS) }),
    });
  }
  return events;
}
