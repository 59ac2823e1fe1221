/**
 * One scenario for every agent: scripts speak of generic tools — Claude Code's
 * `Write` {file_path, content} and `Bash` {command, description} — and each
 * wire turns them into the tool the agent offered in its request (Codex
 * `exec_command`, Gemini `write_file`/`run_shell_command`, OpenCode
 * `write`/`bash`). A tool the agent offers under the scripted name is used as is.
 */
import type { MessageReply, ToolUse } from './model-script.js';

/** `it's` -> `'it'\''s'`: one word for a POSIX shell, whatever it holds. */
export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A shell command that writes `content` to `path` exactly, creating parent directories. */
export function writeFileCommand(path: string, content: string): string {
  const quoted = shellQuote(path);
  return `mkdir -p "$(dirname ${quoted})" && printf '%s' ${shellQuote(content)} > ${quoted}`;
}

function shellCall(command: string, description: string, offered: readonly string[]): ToolUse | undefined {
  if (offered.includes('exec_command')) return { name: 'exec_command', input: { cmd: command } };
  if (offered.includes('run_shell_command'))
    return { name: 'run_shell_command', input: { command, description } };
  if (offered.includes('bash')) return { name: 'bash', input: { command, description } };
  if (offered.includes('Bash')) return { name: 'Bash', input: { command, description } };
  return undefined;
}

/** The agent's own form of a generic tool call; unchanged when it offers that name or has no match. */
export function adaptToolUse(use: ToolUse, offered: readonly string[]): ToolUse {
  if (offered.includes(use.name)) return use;
  const withId = (adapted: ToolUse): ToolUse => (use.id === undefined ? adapted : { ...adapted, id: use.id });
  if (use.name === 'Bash') {
    const command = text(use.input.command);
    const adapted = shellCall(command, text(use.input.description) || 'Run a command', offered);
    return adapted ? withId(adapted) : use;
  }
  if (use.name === 'Write') {
    const path = text(use.input.file_path);
    const content = text(use.input.content);
    if (offered.includes('write_file'))
      return withId({ name: 'write_file', input: { file_path: path, content } });
    if (offered.includes('write')) return withId({ name: 'write', input: { filePath: path, content } });
    const adapted = shellCall(writeFileCommand(path, content), `Write ${path}`, offered);
    return adapted ? withId(adapted) : use;
  }
  return use;
}

export function adaptReplyTools(reply: MessageReply, offered: readonly string[]): MessageReply {
  if (reply.toolUses === undefined) return reply;
  return { ...reply, toolUses: reply.toolUses.map((use) => adaptToolUse(use, offered)) };
}
