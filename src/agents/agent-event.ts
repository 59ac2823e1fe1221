/**
 * What an agent run reports, whatever CLI produced it. Adapters' stream
 * parsers produce these; the attempt kernel, the TUI and the logs consume
 * them. Declared once as schemas (they cross a process boundary inside the
 * run's `events.jsonl` and `--json`); the types are what the schemas accept.
 */
import { z } from 'zod';

export const AGENT_ERROR_KINDS = ['rate-limit', 'overloaded', 'auth', 'api', 'other'] as const;
export type AgentErrorKind = (typeof AGENT_ERROR_KINDS)[number];

export const SessionStartedEventSchema = z.object({
  type: z.literal('session-started'),
  sessionId: z.string().optional(),
  model: z.string().optional(),
});

/** Text the agent itself wrote: the only place completion signals are read from. */
export const AssistantTextEventSchema = z.object({ type: z.literal('assistant-text'), text: z.string() });

export const ToolStartedEventSchema = z.object({
  type: z.literal('tool-started'),
  id: z.string(),
  name: z.string(),
  /** The key argument: a file path, a command, a pattern. One line, shortened. */
  summary: z.string(),
});

export const ToolFinishedEventSchema = z.object({
  type: z.literal('tool-finished'),
  id: z.string(),
  ok: z.boolean(),
  /** The tool's output, truncated to a few KB. */
  output: z.string().optional(),
});

/**
 * Tokens spent since the previous usage event of the same run, so summing a
 * run's usage events gives its total. Claude reports one, with the run totals.
 */
export const UsageEventSchema = z.object({
  type: z.literal('usage'),
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number().optional(),
  cacheWriteTokens: z.number().optional(),
  costUsd: z.number().optional(),
});

/** The agent's own end-of-run summary. `ok: false` for any error ending. */
export const ResultEventSchema = z.object({
  type: z.literal('result'),
  ok: z.boolean(),
  text: z.string().optional(),
  subtype: z.string().optional(),
  costUsd: z.number().optional(),
  durationMs: z.number().optional(),
  numTurns: z.number().optional(),
  sessionId: z.string().optional(),
});

/**
 * A failure reported by the agent CLI or its API (not by a tool). Rate limits
 * and overload are kinds of their own so the loop can wait instead of
 * counting a failed attempt.
 */
export const ErrorEventSchema = z.object({
  type: z.literal('error'),
  message: z.string(),
  kind: z.enum(AGENT_ERROR_KINDS),
  /** ISO 8601 when the agent gave a timestamp, else its own words (e.g. `5pm (Europe/Berlin)`). */
  resetsAt: z.string().optional(),
});

/**
 * The agent CLI retrying a failed API request by itself (Claude Code's
 * `api_retry` lines, Codex's "Reconnecting... 2/5"). The attempt goes on; a
 * user watching sees why it is quiet, and how often it has been retried.
 */
export const RetryEventSchema = z.object({
  type: z.literal('retry'),
  attempt: z.number(),
  maxRetries: z.number(),
  /** How long the CLI waits before the retry, when it says. */
  delayMs: z.number().optional(),
  /** The HTTP status; absent for connection errors that got no response. */
  status: z.number().optional(),
  /** What failed, in the CLI's words (`overloaded`, `server_error`, ...). */
  reason: z.string(),
});

/** A well-formed line the parser does not model. Never dropped, never a crash. */
export const UnknownEventSchema = z.object({ type: z.literal('unknown'), raw: z.unknown() });

/** A stdout line that is not JSON (or was cut at the line-size cap). */
export const GarbageEventSchema = z.object({ type: z.literal('garbage'), line: z.string() });

export const AgentEventSchema = z.discriminatedUnion('type', [
  SessionStartedEventSchema,
  AssistantTextEventSchema,
  ToolStartedEventSchema,
  ToolFinishedEventSchema,
  UsageEventSchema,
  ResultEventSchema,
  ErrorEventSchema,
  RetryEventSchema,
  UnknownEventSchema,
  GarbageEventSchema,
]);

export type SessionStartedEvent = z.infer<typeof SessionStartedEventSchema>;
export type UsageEvent = z.infer<typeof UsageEventSchema>;
export type ResultEvent = z.infer<typeof ResultEventSchema>;
export type ErrorEvent = z.infer<typeof ErrorEventSchema>;
export type RetryEvent = z.infer<typeof RetryEventSchema>;
export type AgentEvent = z.infer<typeof AgentEventSchema>;
