/** Recognising API failures in agent CLIs' words. Pure; shared by adapters. */
import type { AgentErrorKind, ErrorEvent } from './agent-event.js';

const PATTERNS: ReadonlyArray<readonly [AgentErrorKind, RegExp]> = [
  ['overloaded', /overloaded|\b529\b/i],
  [
    'rate-limit',
    /hit your (?:[\w-]+ )*limit|usage limit|rate[ _-]?limit|\b429\b|too many requests|limit reached|out of (?:extra )?usage/i,
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

/** `You've hit your limit · resets 5pm (Europe/Berlin)` -> `5pm (Europe/Berlin)`. */
export function resetsAtFromText(text: string): string | undefined {
  const match = /\bresets\s+(?:at\s+)?([^·\n]+)/i.exec(text);
  const when = match?.[1]?.trim().replace(/\.$/, '');
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
