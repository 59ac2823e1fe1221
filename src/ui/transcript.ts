/**
 * One iteration told for a person reading it the morning after (`ralph logs
 * --iteration N`): what the agent said, the tools it ran with their commands
 * and outcomes, the gates with their output, and the verdict; for a failed
 * iteration, the command that reopens the agent's session. Made from the
 * run's `events.jsonl`, the records every runner writes, so it reads the
 * same whichever agent ran. Pure: the caller reads the file and prints
 * (through the CLI's writer, which shows control characters as symbols).
 */
import type { AgentEvent } from '../agents/agent-event.js';
import type { RunEventRecord } from '../events/run-event.js';
import { describeEvent, describeRetry, firstLine } from './plain-reporter.js';

export interface TranscriptOptions {
  /** The command that reopens a session of the iteration's agent, if it can (`claude --resume=<id>`). */
  resumeCommand?: (agent: string, sessionId: string) => readonly string[] | undefined;
}

/**
 * The records of iteration `n`: from its start to the next iteration's, in
 * its lane, or to the end of its session (a stopped iteration is followed by
 * the next run's start, whose lines are not its own).
 */
export function iterationRecords(records: readonly RunEventRecord[], n: number): RunEventRecord[] {
  const start = records.findIndex((r) => r.type === 'iteration-started' && r.iteration === n);
  if (start === -1) return [];
  const lane = records[start]?.worker;
  const out: RunEventRecord[] = [];
  for (const record of records.slice(start)) {
    if (record !== records[start] && record.type === 'iteration-started' && record.worker === lane) break;
    if (record.type === 'run-started') break;
    if (record.worker !== lane) continue;
    if ('iteration' in record && typeof record.iteration === 'number' && record.iteration !== n) continue;
    out.push(record);
  }
  return out;
}

const SHELL_TOOL = /bash|shell|exec|command/i;
const TAIL_LINES = 12;

/** The transcript's lines. */
export function formatTranscript(
  records: readonly RunEventRecord[],
  context: { cwd?: string; agent?: string },
  options: TranscriptOptions = {},
): string[] {
  const lines: string[] = [];
  const tools = new Map<string, { name: string; summary: string }>();
  let sessionId: string | undefined;
  let agent = context.agent;
  let failed = false;
  for (const record of records) {
    switch (record.type) {
      case 'iteration-started': {
        agent = record.agent ?? agent;
        const what = record.storyId
          ? `${record.storyId} ${record.title ?? ''}, attempt ${record.attempt}/${record.maxAttempts}`
          : `${record.mode ?? 'goal'}${record.step ? ` ${record.step.id}` : ''}`;
        lines.push(
          `iteration ${record.iteration} — ${what.trim()}${agent ? ` (${agent})` : ''}, ${stamp(record.at)}`,
        );
        break;
      }
      case 'agent-event': {
        const event = record.event;
        if (event.type === 'session-started' && event.sessionId) sessionId = event.sessionId;
        if (event.type === 'tool-started') tools.set(event.id, { name: event.name, summary: event.summary });
        lines.push(...agentLines(event, tools));
        break;
      }
      case 'check-finished':
        lines.push(
          `  gate ${record.exitCode === 0 ? 'passed' : `failed (exit ${record.exitCode})`}: ${record.command} (${(record.durationMs / 1000).toFixed(1)}s)`,
          ...(record.exitCode === 0 ? [] : tail(record.outputTail)),
        );
        break;
      case 'attempt-failed':
        failed = true;
        lines.push(
          `verdict: ✗ failed (${record.kind}): ${record.reason.trim()}${record.willRetry ? ' — will retry' : ''}`,
        );
        break;
      case 'story-passed':
        lines.push(
          `verdict: ✓ ${record.storyId} passed (${record.commits.map((c) => c.sha.slice(0, 7)).join(', ')})`,
        );
        break;
      case 'goal-result':
        lines.push(`verdict: ✓ ${record.status}: ${firstLine(record.summary.trim())}`);
        break;
      case 'check-started':
      case 'usage':
      case 'agent-silent':
        break;
      default: {
        const said = describeEvent(record, true);
        if (said !== null) lines.push(said.startsWith('  ') ? said : `  ${said}`);
        if (record.type === 'story-parked' || record.type === 'agent-unusable') failed = true;
      }
    }
  }
  const reopen = agent && sessionId ? options.resumeCommand?.(agent, sessionId) : undefined;
  if (failed && reopen) {
    const where = context.cwd ? `cd ${quote(context.cwd)} && ` : '';
    lines.push(`reopen it: ${where}${reopen.map(quote).join(' ')}`);
  }
  return lines;
}

function agentLines(event: AgentEvent, tools: Map<string, { name: string; summary: string }>): string[] {
  switch (event.type) {
    case 'assistant-text':
      return event.text
        .trim()
        .split('\n')
        .map((l, i) => (i === 0 ? `  agent: ${l}` : `         ${l}`));
    case 'tool-started': {
      const shell = SHELL_TOOL.test(event.name);
      return [shell ? `  $ ${event.summary}` : `  ⚙ ${event.name} ${event.summary}`.trimEnd()];
    }
    case 'tool-finished': {
      const tool = tools.get(event.id);
      const shell = tool !== undefined && SHELL_TOOL.test(tool.name);
      const code = /^exit code (\d+)/i.exec(event.output ?? '')?.[1];
      const outcome = event.ok ? (shell ? 'exit 0' : 'ok') : code !== undefined ? `exit ${code}` : 'failed';
      return [`    → ${outcome}`, ...(event.ok ? [] : tail(event.output ?? '', 6))];
    }
    case 'error':
      return [`  agent error (${event.kind}): ${firstLine(event.message)}`];
    case 'retry':
      return [`  ${describeRetry(event)}`];
    case 'result':
      return event.ok
        ? []
        : [`  the agent ended with an error${event.text ? `: ${firstLine(event.text)}` : ''}`];
    default:
      return [];
  }
}

const tail = (text: string, lines = TAIL_LINES): string[] =>
  text
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .filter((l) => l !== '')
    .map((l) => `      ${l}`);

const stamp = (at: string): string => at.slice(0, 19).replace('T', ' ');

/** A shell word, quoted only when it needs to be. */
const quote = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
