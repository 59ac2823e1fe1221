/** Recognising API failures in agent CLIs' words. Pure; shared by adapters. */
import type { AgentErrorKind, ErrorEvent } from './agent-event.js';

const PATTERNS: ReadonlyArray<readonly [AgentErrorKind, RegExp]> = [
  // Codex words a 5xx as "high demand"; Gemini a 503 as "overloaded" or "no capacity".
  ['overloaded', /overloaded|\b529\b|high demand|no capacity|at capacity/i],
  [
    'rate-limit',
    /hit your (?:[\w-]+ )*limit|usage limit|rate[ _-]?limit|\b429\b|too many requests|limit reached|out of (?:extra )?usage|resource[ _]exhausted|resource has been exhausted|quota (?:exceeded|exhausted)|exceeded (?:your |the )?(?:current )?quota/i,
  ],
  // Billing problems sit with auth: both need the user to fix their account.
  [
    'auth',
    /\b40[13]\b|authentication|invalid api key|please run \/login|not logged in|oauth token|unauthori[sz]ed|credit balance|billing/i,
  ],
  [
    'api',
    /api error|\b5\d\d\b|server error|invalid_request|prompt is too long|econnrefused|econnreset|etimedout|fetch failed|connection error/i,
  ],
];

/** The kind of an error message; `other` when nothing matches. */
export function classifyErrorText(text: string): AgentErrorKind {
  for (const [kind, pattern] of PATTERNS) if (pattern.test(text)) return kind;
  return 'other';
}

export function kindFromHttpStatus(status: number): AgentErrorKind {
  if (status === 429) return 'rate-limit';
  if (status === 529) return 'overloaded';
  if (status === 401 || status === 403) return 'auth';
  return 'api';
}

/**
 * When a usage limit ends, in the agent's words: `… · resets 5pm (Europe/Berlin)`
 * -> `5pm (Europe/Berlin)`; Codex's `… or try again at 5:00 PM.` -> `5:00 PM`,
 * `try again in 2 days 3 hours.` -> `in 2 days 3 hours`.
 */
export function resetsAtFromText(text: string): string | undefined {
  const resets = /\bresets\s+(?:at\s+)?([^·\n]+)/i.exec(text)?.[1];
  const retryAt = /\btry again at\s+([^\n]+?)\.?(?:$|\n|\.\s)/i.exec(text)?.[1];
  const retryIn = /\b(?:try again|retry) (in\s+[^\n]+?)\.?(?:$|\n|\.\s)/i.exec(text)?.[1];
  const when = (resets ?? retryAt ?? retryIn)?.trim().replace(/\.$/, '');
  return when ? when : undefined;
}

/** An ISO timestamp from a Unix time in seconds, or undefined when it is not a sane number. */
export function isoFromEpochSeconds(seconds: number | undefined): string | undefined {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  return new Date(seconds * 1000).toISOString();
}

export function errorEventFromText(
  message: string,
  kind: AgentErrorKind = classifyErrorText(message),
): ErrorEvent {
  const event: ErrorEvent = { type: 'error', message, kind };
  const resetsAt = kind === 'rate-limit' ? resetsAtFromText(message) : undefined;
  if (resetsAt !== undefined) event.resetsAt = resetsAt;
  return event;
}
