/**
 * The agent stream as cards for the log view: the agent's text, its tool
 * calls (with their results folded in), the gate checks, and one-line notes
 * for what the loop did. Pure; kept in a ring so memory stays bounded.
 */
import type { AgentEvent } from '../../../agents/agent-event.js';
import type { RunEvent } from '../../../events/run-event.js';
import { describeEvent, describeRetry } from '../../plain-reporter.js';
import type { SessionEvent } from '../session.js';
import { attemptOf, isGoalFlavoured } from './goal-event.js';
import { emptyRing, pushRing, type Ring, updateLast } from './ring.js';

export type Tone = 'info' | 'good' | 'bad' | 'warn';

export type LogCard =
  | {
      kind: 'iteration';
      seq: number;
      iteration: number;
      storyId: string;
      title: string;
      attempt: number;
      maxAttempts: number;
    }
  | { kind: 'text'; seq: number; text: string }
  | {
      kind: 'tool';
      seq: number;
      id: string;
      name: string;
      summary: string;
      status: 'running' | 'ok' | 'failed';
      output?: string;
    }
  | {
      kind: 'check';
      seq: number;
      command: string;
      status: 'running' | 'passed' | 'failed';
      exitCode?: number;
      outputTail?: string;
    }
  | { kind: 'note'; seq: number; tone: Tone; text: string };

type ToolCard = Extract<LogCard, { kind: 'tool' }>;
type CheckCard = Extract<LogCard, { kind: 'check' }>;

export interface LogState {
  cards: Ring<LogCard>;
  nextSeq: number;
}

/** Two thousand cards is hours of agent work; older ones are in `.ralph/runs/<name>/iterations/`. */
export const LOG_CAPACITY = 2000;

export const emptyLog = (capacity = LOG_CAPACITY): LogState => ({ cards: emptyRing(capacity), nextSeq: 0 });

/** Appends a card; `card.seq` must be `log.nextSeq` (a stable React key, and a cursor for tests). */
function add(log: LogState, card: LogCard): LogState {
  return { cards: pushRing(log.cards, card), nextSeq: log.nextSeq + 1 };
}

export const note = (log: LogState, tone: Tone, text: string): LogState =>
  add(log, { kind: 'note', seq: log.nextSeq, tone, text });

export function logEvent(log: LogState, event: SessionEvent): LogState {
  // A goal run's own events are logged by its view (goal-run-view.ts).
  if (isGoalFlavoured(event)) return log;
  switch (event.type) {
    case 'iteration-started':
      return add(log, {
        kind: 'iteration',
        seq: log.nextSeq,
        iteration: event.iteration,
        ...attemptOf(event),
      });
    case 'agent-event':
      return logAgentEvent(log, event.event);
    case 'check-started':
      return add(log, { kind: 'check', seq: log.nextSeq, command: event.command, status: 'running' });
    case 'check-finished':
      return {
        ...log,
        cards: updateLast(
          log.cards,
          (c): c is CheckCard => c.kind === 'check' && c.command === event.command && c.status === 'running',
          (c) => ({
            ...c,
            status: event.exitCode === 0 ? 'passed' : 'failed',
            exitCode: event.exitCode,
            outputTail: event.outputTail,
          }),
        ),
      };
    case 'usage':
      return log;
    default: {
      const text = describeEvent(event, false);
      return text === null ? log : note(log, toneOf(event), text.trim());
    }
  }
}

function logAgentEvent(log: LogState, event: AgentEvent): LogState {
  switch (event.type) {
    case 'assistant-text':
      return event.text.trim() === ''
        ? log
        : add(log, { kind: 'text', seq: log.nextSeq, text: event.text.trim() });
    case 'tool-started':
      return add(log, {
        kind: 'tool',
        seq: log.nextSeq,
        id: event.id,
        name: event.name,
        summary: event.summary,
        status: 'running',
      });
    case 'tool-finished':
      return {
        ...log,
        cards: updateLast(
          log.cards,
          (c): c is ToolCard => c.kind === 'tool' && c.id === event.id,
          (c) => ({
            ...c,
            status: event.ok ? 'ok' : 'failed',
            ...(event.output !== undefined ? { output: event.output } : {}),
          }),
        ),
      };
    case 'error':
      return note(log, 'bad', `agent error (${event.kind}): ${event.message}`);
    case 'retry':
      return note(log, 'warn', describeRetry(event));
    case 'garbage':
      return note(log, 'info', `(unparsed output) ${event.line}`);
    case 'result':
      return event.ok
        ? log
        : note(log, 'bad', `agent ended with an error${event.subtype ? ` (${event.subtype})` : ''}`);
    default:
      return log;
  }
}

export function toneOf(event: RunEvent): Tone {
  switch (event.type) {
    case 'story-passed':
    case 'branch-pushed':
    case 'pr-created':
      return 'good';
    case 'push-failed':
    case 'pr-failed':
      return 'bad';
    case 'attempt-failed':
    case 'story-parked':
      return 'bad';
    case 'signal':
      return event.signal === 'done' ? 'good' : event.signal === 'fail' ? 'bad' : 'info';
    case 'run-finished':
      return event.exitCode === 0 ? 'good' : 'bad';
    case 'agent-exited':
      return event.stopReason === 'exited' && event.exitCode === 0 ? 'info' : 'warn';
    case 'rolled-back':
    case 'rate-limited':
    case 'stop-requested':
    case 'warning':
    case 'task-file-restored':
    case 'attempt-undone':
    case 'lock-taken-over':
    case 'recovered':
      return 'warn';
    default:
      return 'info';
  }
}
