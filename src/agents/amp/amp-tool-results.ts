/**
 * Amp puts a shell command's outcome inside its `tool_result` text, as JSON
 * (`{"output": "…", "exitCode": 1}`), and leaves `is_error` false even when
 * the command failed (seen in recorded runs, test/fixtures/peers/). These
 * results are read here: a non-zero exit code is a failed tool, and the
 * output is the command's own text.
 */
import { z } from 'zod';
import type { AgentEvent } from '../agent-event.js';
import { userEvents } from '../claude/claude-lines.js';
import { textBlockSchema, toolResultBlockSchema, type UserLine } from '../claude/claude-schemas.js';
import { TOOL_OUTPUT_MAX_CHARS, truncate } from '../summarize.js';

const shellResultSchema = z.looseObject({ output: z.string(), exitCode: z.number().int() });
type ShellResult = z.infer<typeof shellResultSchema>;

export function ampUserEvents(line: UserLine): AgentEvent[] {
  const shells = shellResults(line);
  return userEvents(line).map((event) => {
    const shell = event.type === 'tool-finished' ? shells.get(event.id) : undefined;
    if (event.type !== 'tool-finished' || shell === undefined) return event;
    const failed = shell.exitCode !== 0;
    const output = failed ? `${shell.output.trimEnd()}\n[exit code ${shell.exitCode}]` : shell.output;
    return { ...event, ok: event.ok && !failed, output: truncate(output, TOOL_OUTPUT_MAX_CHARS) };
  });
}

/** The shell results among a user line's tool results, by tool call id, read before any truncation. */
function shellResults(line: UserLine): Map<string, ShellResult> {
  const results = new Map<string, ShellResult>();
  const { content } = line.message;
  if (typeof content === 'string') return results;
  for (const block of content) {
    const result = toolResultBlockSchema.safeParse(block);
    if (!result.success) continue;
    const shell = parseShellResult(textOf(result.data.content));
    if (shell) results.set(result.data.tool_use_id, shell);
  }
  return results;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((b) => {
      const text = textBlockSchema.safeParse(b);
      return text.success ? [text.data.text] : [];
    })
    .join('\n');
}

function parseShellResult(text: string): ShellResult | null {
  if (!text.trimStart().startsWith('{')) return null;
  try {
    const parsed = shellResultSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
