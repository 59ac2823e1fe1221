/**
 * What an agent run reports, whatever CLI produced it. Adapters' stream
 * parsers produce these; the loop, the TUI and the logs consume them.
 */

export type AgentErrorKind = 'rate-limit' | 'overloaded' | 'auth' | 'api' | 'other';

export interface SessionStartedEvent {
  type: 'session-started';
  sessionId?: string;
  model?: string;
}

/** Text the agent itself wrote: the only place completion signals are read from. */
export interface AssistantTextEvent {
  type: 'assistant-text';
  text: string;
}

export interface ToolStartedEvent {
  type: 'tool-started';
  id: string;
  name: string;
  /** The key argument: a file path, a command, a pattern. One line, shortened. */
  summary: string;
}

export interface ToolFinishedEvent {
  type: 'tool-finished';
  id: string;
  ok: boolean;
  /** The tool's output, truncated to a few KB. */
  output?: string;
}

/**
 * Tokens spent since the previous usage event of the same run, so summing a
 * run's usage events gives its total. Claude reports one, with the run totals.
 */
export interface UsageEvent {
  type: 'usage';
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  costUsd?: number;
}

/** The agent's own end-of-run summary. `ok: false` for any error ending. */
export interface ResultEvent {
  type: 'result';
  ok: boolean;
  text?: string;
  subtype?: string;
  costUsd?: number;
  durationMs?: number;
  numTurns?: number;
  sessionId?: string;
}

/**
 * A failure reported by the agent CLI or its API (not by a tool). Rate limits
 * and overload are kinds of their own so the loop can wait instead of
 * counting a failed attempt.
 */
export interface ErrorEvent {
  type: 'error';
  message: string;
  kind: AgentErrorKind;
  /** ISO 8601 when the agent gave a timestamp, else its own words (e.g. `5pm (Europe/Berlin)`). */
  resetsAt?: string;
}

/**
 * The agent CLI retrying a failed API request by itself (Claude Code's
 * `api_retry` lines, Codex's "Reconnecting... 2/5"). The attempt goes on; a
 * user watching sees why it is quiet, and how often it has been retried.
 */
export interface RetryEvent {
  type: 'retry';
  attempt: number;
  maxRetries: number;
  /** How long the CLI waits before the retry, when it says. */
  delayMs?: number;
  /** The HTTP status; absent for connection errors that got no response. */
  status?: number;
  /** What failed, in the CLI's words (`overloaded`, `server_error`, ...). */
  reason: string;
}

/** A well-formed line the parser does not model. Never dropped, never a crash. */
export interface UnknownEvent {
  type: 'unknown';
  raw: unknown;
}

/** A stdout line that is not JSON (or was cut at the line-size cap). */
export interface GarbageEvent {
  type: 'garbage';
  line: string;
}

export type AgentEvent =
  | SessionStartedEvent
  | AssistantTextEvent
  | ToolStartedEvent
  | ToolFinishedEvent
  | UsageEvent
  | ResultEvent
  | ErrorEvent
  | RetryEvent
  | UnknownEvent
  | GarbageEvent;

export type AgentEventType = AgentEvent['type'];
