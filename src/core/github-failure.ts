/**
 * What a failed GitHub API request means for a run, as GitHub documents its
 * answers: a rate limit is waited out (primary: `x-ratelimit-remaining: 0`
 * until `x-ratelimit-reset`; secondary: `retry-after`, else a minute), a
 * network failure or a 5xx is an outage and waited out too, never a story's
 * failure; a bad token, missing rights or an unknown repository stop the
 * command with what is wrong.
 */

export interface FailedRequest {
  /** The HTTP status; null when no answer came (connection refused, DNS, reset). */
  status: number | null;
  headers: Readonly<Record<string, string | number | undefined>>;
  message: string;
}

export type GithubFailure =
  | { kind: 'rate-limit'; waitMs: number; message: string }
  | { kind: 'outage'; message: string }
  | { kind: 'auth'; message: string }
  /** `accepted`: what GitHub says the request needs (`x-accepted-github-permissions`, or the OAuth scopes). */
  | { kind: 'forbidden'; message: string; accepted?: string }
  | { kind: 'not-found'; message: string }
  | { kind: 'other'; status: number; message: string };

/** GitHub's advice when a secondary limit gives no time: wait at least a minute. */
export const SECONDARY_LIMIT_WAIT_MS = 60_000;

const header = (failed: FailedRequest, name: string): string | undefined => {
  const value = failed.headers[name];
  return value === undefined ? undefined : String(value);
};

export function classifyGithubFailure(failed: FailedRequest, nowMs: number): GithubFailure {
  const { status, message } = failed;
  if (status === null || status >= 500) return { kind: 'outage', message };
  const limit = rateLimitWait(failed, nowMs);
  if (limit !== null) return { kind: 'rate-limit', waitMs: limit, message };
  if (status === 401) return { kind: 'auth', message };
  if (status === 403) {
    const accepted =
      header(failed, 'x-accepted-github-permissions') ?? header(failed, 'x-accepted-oauth-scopes');
    return accepted ? { kind: 'forbidden', message, accepted } : { kind: 'forbidden', message };
  }
  if (status === 404) return { kind: 'not-found', message };
  return { kind: 'other', status, message };
}

/** How long a 403 or 429 asks to wait, or null when it is not a rate limit. */
function rateLimitWait(failed: FailedRequest, nowMs: number): number | null {
  if (failed.status !== 403 && failed.status !== 429) return null;
  const retryAfter = Number(header(failed, 'retry-after'));
  if (header(failed, 'retry-after') !== undefined && Number.isFinite(retryAfter)) {
    return Math.max(1000, retryAfter * 1000);
  }
  if (header(failed, 'x-ratelimit-remaining') === '0') {
    const reset = Number(header(failed, 'x-ratelimit-reset'));
    return Number.isFinite(reset) ? Math.max(1000, reset * 1000 - nowMs + 1000) : SECONDARY_LIMIT_WAIT_MS;
  }
  if (failed.status === 429 || /rate limit/i.test(failed.message)) return SECONDARY_LIMIT_WAIT_MS;
  return null;
}

/** The next wait of an outage: doubling from `first`, never above `cap`. */
export const outageBackoff = (attempt: number, first = 1000, cap = 60_000): number =>
  Math.min(cap, first * 2 ** Math.max(0, attempt));
