import { describe, expect, it } from 'vitest';
import { classifyGithubFailure, outageBackoff, SECONDARY_LIMIT_WAIT_MS } from './github-failure.js';

const NOW = 1_700_000_000_000;

describe('a failed GitHub request', () => {
  it('is an outage when nothing answered or GitHub answered 5xx', () => {
    expect(
      classifyGithubFailure({ status: null, headers: {}, message: 'connect ECONNREFUSED' }, NOW).kind,
    ).toBe('outage');
    expect(classifyGithubFailure({ status: 502, headers: {}, message: 'Server Error' }, NOW).kind).toBe(
      'outage',
    );
  });

  it('waits out a primary rate limit until x-ratelimit-reset, a secondary one for retry-after or a minute', () => {
    const reset = String(NOW / 1000 + 120);
    expect(
      classifyGithubFailure(
        {
          status: 403,
          headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
          message: 'API rate limit exceeded',
        },
        NOW,
      ),
    ).toEqual({ kind: 'rate-limit', waitMs: 121_000, message: 'API rate limit exceeded' });
    expect(
      classifyGithubFailure(
        { status: 429, headers: { 'retry-after': '30' }, message: 'secondary rate limit' },
        NOW,
      ),
    ).toMatchObject({ kind: 'rate-limit', waitMs: 30_000 });
    expect(
      classifyGithubFailure(
        {
          status: 403,
          headers: {},
          message: 'You have exceeded a secondary rate limit. Please wait a few minutes',
        },
        NOW,
      ),
    ).toMatchObject({ kind: 'rate-limit', waitMs: SECONDARY_LIMIT_WAIT_MS });
  });

  it('is missing rights on a 403 that is no rate limit, naming what GitHub accepts', () => {
    expect(
      classifyGithubFailure(
        {
          status: 403,
          headers: { 'x-accepted-github-permissions': 'issues=write', 'x-ratelimit-remaining': '4999' },
          message: 'Resource not accessible by personal access token',
        },
        NOW,
      ),
    ).toEqual({
      kind: 'forbidden',
      message: 'Resource not accessible by personal access token',
      accepted: 'issues=write',
    });
    expect(classifyGithubFailure({ status: 401, headers: {}, message: 'Bad credentials' }, NOW).kind).toBe(
      'auth',
    );
    expect(classifyGithubFailure({ status: 404, headers: {}, message: 'Not Found' }, NOW).kind).toBe(
      'not-found',
    );
    expect(classifyGithubFailure({ status: 422, headers: {}, message: 'Validation Failed' }, NOW)).toEqual({
      kind: 'other',
      status: 422,
      message: 'Validation Failed',
    });
  });

  it('backs off an outage by doubling, capped', () => {
    expect([0, 1, 2, 3, 10].map((n) => outageBackoff(n))).toEqual([1000, 2000, 4000, 8000, 60_000]);
  });
});
