/**
 * How an agent run ended, as far as the world outside it goes: read from
 * the errors and retries in its stream, its stderr and its exit, in the
 * words the CLIs were recorded using (test/fixtures/agents/<agent>/outside/).
 * Null when nothing outside is to blame: the end is the agent's own.
 */
import type { OutsideCause, OutsideFailure } from '../core/outside-failure.js';
import type { AgentErrorKind, ErrorEvent, RetryEvent } from './agent-event.js';
import { resetsAtFromText } from './classify-error.js';

/** The CLIs' words, most specific first: a usage limit over a 429, a 529 over a server error. */
const CAUSES: ReadonlyArray<readonly [OutsideCause, RegExp]> = [
  [
    'quota',
    /usage limit|hit your (?:[\w-]+ )*limit|out of (?:extra )?usage|insufficient_quota|quota (?:exceeded|exhausted)|exceeded (?:your |the )?(?:current )?quota|check quota|resource has been exhausted/i,
  ],
  ['rate-limit', /rate[ _-]?limit|\b429\b|too many requests|resource[ _]exhausted|limit reached/i],
  [
    'auth',
    /\b40[13]\b|unauthori[sz]ed|unauthenticated|authenticat|not logged in|please run \/login|no api key found|api key not valid|invalid (?:x-)?api[ _-]?key|incorrect api key|provided api key is invalid|invalid or missing api key|missing environment variable|oauth token|permission_denied|credit balance|billing/i,
  ],
  ['overloaded', /overloaded|\b529\b|high demand|no capacity|at capacity/i],
  [
    'unreachable',
    /econnrefused|connectionrefused|connection refused|econnreset|connection reset|etimedout|enotfound|eai_again|ehostunreach|enetunreach|unable to connect|couldn'?t connect|could not connect|connection failed|connection error|fetch failed|socket hang up|getaddrinfo|waiting for network|stream disconnected|certificate|\b(?:tls|ssl)\b/i,
  ],
  [
    'server-error',
    /\b5\d\d\b|server error|internal error|service unavailable|bad gateway|gateway timeout|server returned an error|server_error|\bapi_error\b/i,
  ],
];

/** The outside cause an error text names, or null when it names none. */
export function causeOfText(text: string): OutsideCause | null {
  for (const [cause, pattern] of CAUSES) if (pattern.test(text)) return cause;
  return null;
}

/** An HTTP status's cause; no status at all means no answer came (a connection failure). */
export function causeOfStatus(status: number | undefined): OutsideCause | null {
  if (status === undefined) return 'unreachable';
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate-limit';
  if (status === 529) return 'overloaded';
  if (status >= 500 && status < 600) return 'server-error';
  return null;
}

/** What a CLI's own retry of an API request is about. */
export function causeOfRetry(retry: RetryEvent): OutsideCause | null {
  if (retry.status !== undefined) {
    const cause = causeOfStatus(retry.status);
    // Google's API says its model is overloaded with a 503, not a 529: the words tell.
    return cause === 'server-error' && causeOfText(retry.reason) === 'overloaded' ? 'overloaded' : cause;
  }
  // Claude Code says `unknown` for a request that got no answer; Codex names the failure.
  return (
    causeOfText(retry.reason) ?? (/^(?:unknown|connection error)$/i.test(retry.reason) ? 'unreachable' : null)
  );
}

/** The parser's coarse kind, where the words themselves name nothing. */
const BY_KIND: Partial<Record<AgentErrorKind, OutsideCause>> = {
  auth: 'auth',
  overloaded: 'overloaded',
  'rate-limit': 'rate-limit',
};

function causeOfError(error: ErrorEvent): OutsideCause | null {
  return causeOfText(error.message) ?? BY_KIND[error.kind] ?? null;
}

/** What an adapter knows of its CLI's endings beyond its words. */
export interface EndHints {
  /** Exit codes with a fixed meaning (Gemini CLI exits 41 when it cannot authenticate). */
  exitCodes?: Readonly<Record<number, OutsideCause>>;
}

export interface AgentEnd {
  stopReason: 'exited' | 'timeout' | 'idle' | 'aborted' | 'spawn-error';
  exitCode: number | null;
  /** The end of stderr; for a spawn error, the operating system's reason. */
  stderrTail: string;
  /** The CLI's errors, in order. */
  errors: readonly ErrorEvent[];
  /** The CLI's retries since its last sign of work, in order. */
  retries: readonly RetryEvent[];
  /** The CLI's own result said it failed. */
  resultFailed: boolean;
  /** Any stdout line at all came. */
  anyOutput: boolean;
  /** The agent wrote or ran something: its API answered at least once. */
  worked?: boolean;
  /** The last stdout lines that were not JSON (a login prompt printed instead of the stream). */
  garbage?: readonly string[];
}

/**
 * The outside failure that ended a run, or null. An error the CLI reported
 * speaks first (the last one that names a cause); then, for a failed exit,
 * its stderr and the exit codes the adapter knows; a run killed by a time
 * limit while the CLI was retrying is put down to what it retried.
 */
export function classifyAgentEnd(end: AgentEnd, hints: EndHints = {}): OutsideFailure | null {
  if (end.stopReason === 'spawn-error') {
    return { cause: 'not-startable', message: end.stderrTail.trim() || 'the agent could not be started' };
  }
  if (end.stopReason === 'aborted') return null;
  for (const error of [...end.errors].reverse()) {
    const cause = causeOfError(error);
    if (cause !== null) return failure(cause, error.message, error.resetsAt);
  }
  const stopped = end.stopReason === 'timeout' || end.stopReason === 'idle';
  const failed = (end.exitCode !== null && end.exitCode !== 0) || end.resultFailed;
  // A CLI that printed words instead of its stream before any work (Amp's login prompt).
  const said = end.worked ? '' : (end.garbage ?? []).join('\n');
  const bySaid = (stopped || failed) && said !== '' ? causeOfText(said) : null;
  if (bySaid !== null) return failure(bySaid, lastLines(said));
  if (stopped) {
    const last = end.retries.at(-1);
    const cause = last ? causeOfRetry(last) : null;
    return last && cause !== null ? failure(cause, last.reason) : null;
  }
  if (!failed) return null;
  const stderr = end.stderrTail.slice(-2000);
  const byStderr = causeOfText(stderr);
  if (byStderr !== null) return failure(byStderr, lastLines(stderr));
  const byExit = end.exitCode === null ? undefined : hints.exitCodes?.[end.exitCode];
  if (byExit !== undefined) return failure(byExit, lastLines(stderr) || `exit code ${end.exitCode}`);
  // A shell's "cannot execute" (126) or "not found" (127) before the CLI said anything.
  if (!end.anyOutput && (end.exitCode === 126 || end.exitCode === 127)) {
    return failure('not-startable', lastLines(stderr) || `exit code ${end.exitCode}`);
  }
  return null;
}

function failure(cause: OutsideCause, message: string, resetsAt?: string): OutsideFailure {
  const at =
    resetsAt ?? (cause === 'quota' || cause === 'rate-limit' ? resetsAtFromText(message) : undefined);
  return at === undefined ? { cause, message } : { cause, message, resetsAt: at };
}

const lastLines = (text: string): string =>
  text
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-3)
    .join('\n');
