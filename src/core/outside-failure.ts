/**
 * Failures that come from the world around an attempt, not from what the
 * agent did with its chance: its login, its binary, its API's network and
 * servers, its rate and usage limits. None of them costs a story an attempt
 * (a story is parked only for its own failures); what the run does instead
 * depends on the cause. Pure: the words the CLIs use are read in
 * `src/agents/classify-end.ts`.
 */

export const OUTSIDE_CAUSES = [
  /** Not logged in, a bad or expired key, no subscription: a person must fix the account. */
  'auth',
  /** The agent's binary is missing or cannot be executed. */
  'not-startable',
  /** No connection to the API: refused, reset, DNS, TLS. */
  'unreachable',
  /** The API says it is overloaded (HTTP 529, "overloaded", "high demand"). */
  'overloaded',
  /** The API answers with a server error (HTTP 5xx). */
  'server-error',
  /** Too many requests for now (HTTP 429). */
  'rate-limit',
  /** A usage limit or quota used up until a reset time. */
  'quota',
] as const;
export type OutsideCause = (typeof OUTSIDE_CAUSES)[number];

export interface OutsideFailure {
  cause: OutsideCause;
  /** What failed, in the agent's (or the operating system's) words. */
  message: string;
  /** When a limit ends: ISO 8601, or the agent's own words. */
  resetsAt?: string;
}

/** What a run does about an outside failure: stop at once, wait out an outage, or wait out a limit. */
export type OutsideResponse = 'stop' | 'outage' | 'limit';

export function responseTo(cause: OutsideCause): OutsideResponse {
  switch (cause) {
    case 'auth':
    case 'not-startable':
      return 'stop';
    case 'unreachable':
    case 'overloaded':
    case 'server-error':
      return 'outage';
    case 'rate-limit':
    case 'quota':
      return 'limit';
  }
}

export const isOutage = (cause: OutsideCause): boolean => responseTo(cause) === 'outage';

/** How an outage is named in a sentence. */
export function describeOutage(cause: OutsideCause): string {
  switch (cause) {
    case 'unreachable':
      return 'cannot reach its API';
    case 'overloaded':
      return 'finds its API overloaded';
    case 'server-error':
      return 'gets server errors from its API';
    default:
      return 'is held up outside';
  }
}

/** What a person does about an agent that cannot be used, given how its CLI is installed and logged in to. */
export interface UnusableHelp {
  /** The agent as named on the command line, e.g. `claude`. */
  agent: string;
  /** How to log in, e.g. "run `claude` and log in with /login, or set ANTHROPIC_API_KEY". */
  login: string;
  /** How to install it, e.g. `npm i -g @anthropic-ai/claude-code`. */
  install: string;
  /** The binary ralph tried to run. */
  binaryPath: string;
}

/**
 * One sentence for an agent that cannot be used: which agent, what failed,
 * and how to fix it (`message` + `fix`).
 */
export function unusableSentence(
  failure: OutsideFailure,
  help: UnusableHelp,
): { kind: 'auth' | 'not-startable'; message: string; fix: string } {
  const said = oneLine(failure.message);
  if (failure.cause === 'not-startable') {
    return {
      kind: 'not-startable',
      message: `${help.agent} could not be started: ${said || help.binaryPath}`,
      fix: `install it (${help.install}) or point --agent-path at it, then run ralph again`,
    };
  }
  return {
    kind: 'auth',
    message: `${help.agent} cannot authenticate${said ? `: ${said}` : ''}`,
    fix: `${help.login}, then run ralph again`,
  };
}

const oneLine = (text: string): string => {
  const line =
    text
      .trim()
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line.trim();
};

/**
 * The wait before the next look at an API in an outage: exponential from
 * `baseMs`, capped at `capMs`, and never past the end of the outage budget.
 */
export function outageBackoffMs(input: {
  baseMs: number;
  capMs: number;
  /** Waits already made in this outage. */
  streak: number;
  /** Of the outage budget (`--outage-wait`). */
  remainingMs: number;
}): number {
  const backoff = Math.min(input.baseMs * 2 ** input.streak, input.capMs);
  return Math.max(0, Math.min(backoff, input.remainingMs));
}
