/**
 * GitHub's REST API through Octokit, for one repository, with the outage
 * rules of a run: a rate limit is waited out until GitHub's reset time, a
 * network failure or a 5xx answer with a backoff up to the outage limit
 * (then exit 3). Each wait is reported, so a run shows it as `waiting`.
 * Anything else is a `GithubRequestFailed` for the caller to judge.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { RequestError } from '@octokit/request-error';
import { ExitCode, RalphError } from '../core/errors.js';
import {
  classifyGithubFailure,
  type FailedRequest,
  type GithubFailure,
  outageBackoff,
} from '../core/github-failure.js';
import type { RepoRef } from '../core/github-repo.js';

export interface GithubWait {
  reason: 'rate-limit' | 'outage';
  message: string;
  waitMs: number;
  /** When the next try is made (ISO 8601). */
  until: string;
}

export interface GithubConnection {
  /** `GITHUB_API_URL`, or the public API. */
  apiUrl: string;
  token: string;
  repo: RepoRef;
}

export interface GithubClientOptions extends GithubConnection {
  onWait(wait: GithubWait): void;
  /** Ends a wait at once (the command is being stopped); a request under way is left to finish. */
  signal?: AbortSignal;
  /** How long an outage may last before the command gives up (exit 3); default two hours. */
  outageLimitMs?: number;
  now?: () => number;
}

export interface GithubClient {
  readonly repo: RepoRef;
  readonly apiUrl: string;
  /** One request, its waits included. `params` fills the route's `{placeholders}`. */
  request(route: string, params?: Record<string, unknown>): Promise<{ status: number; data: unknown }>;
  /** Every page of a list, following GitHub's `link` headers. */
  paginate(route: string, params?: Record<string, unknown>): Promise<unknown[]>;
}

/** A request GitHub answered with something other than a wait: the caller says what it means. */
export class GithubRequestFailed extends Error {
  constructor(
    readonly route: string,
    readonly failure: GithubFailure,
  ) {
    super(failure.message);
    this.name = 'GithubRequestFailed';
  }
}

export const DEFAULT_OUTAGE_LIMIT_MS = 2 * 60 * 60 * 1000;

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

const PaginatingOctokit = Octokit.plugin(paginateRest);

export function createGithubClient(options: GithubClientOptions): GithubClient {
  const now = options.now ?? Date.now;
  const limit = options.outageLimitMs ?? DEFAULT_OUTAGE_LIMIT_MS;
  const octokit = new PaginatingOctokit({
    auth: options.token,
    baseUrl: options.apiUrl.replace(/\/+$/, ''),
    userAgent: 'ralph',
    // Octokit's own warnings (deprecations) would print; a run reports through its events only.
    log: quiet,
  });
  octokit.hook.wrap('request', async (request, params) => {
    let outageSince: number | null = null;
    for (let attempt = 0; ; attempt++) {
      try {
        return await request(params);
      } catch (error) {
        const failure = classifyGithubFailure(failedRequest(error), now());
        const route = `${params.method} ${params.url}`;
        if (failure.kind === 'rate-limit') {
          await wait({
            reason: 'rate-limit',
            message: rateLimitMessage(failure.message),
            waitMs: failure.waitMs,
          });
          continue;
        }
        if (failure.kind !== 'outage') throw new GithubRequestFailed(route, failure);
        outageSince ??= now();
        const waited = now() - outageSince;
        if (waited >= limit) {
          throw new RalphError(
            `GitHub's API at ${options.apiUrl} has not answered for ${Math.round(waited / 60_000)} min (${failure.message}); stopped`,
            'github-outage',
            ExitCode.LimitReached,
            ['run the command again once GitHub answers; nothing was parked or counted for the outage'],
          );
        }
        await wait({
          reason: 'outage',
          message: `GitHub's API did not answer (${failure.message})`,
          waitMs: Math.min(outageBackoff(attempt), limit - waited),
        });
      }
    }
  });

  async function wait(w: Omit<GithubWait, 'until'>): Promise<void> {
    options.onWait({ ...w, until: new Date(now() + w.waitMs).toISOString() });
    try {
      await sleep(w.waitMs, undefined, options.signal ? { signal: options.signal } : {});
    } catch {
      throw new RalphError('stopped while waiting for GitHub', 'interrupted', ExitCode.Interrupted);
    }
  }

  return {
    repo: options.repo,
    apiUrl: options.apiUrl,
    request: async (route, params = {}) => {
      const response = await octokit.request(route, { ...options.repo, ...params });
      return { status: response.status, data: response.data };
    },
    paginate: async (route, params = {}) =>
      (await octokit.paginate(route, { ...options.repo, per_page: 100, ...params })) as unknown[],
  };
}

function rateLimitMessage(message: string): string {
  return /rate limit/i.test(message) ? `GitHub: ${message}` : `GitHub's rate limit (${message})`;
}

/** An Octokit error as the classifier reads it; no answer at all (refused, reset, DNS) has no status. */
function failedRequest(error: unknown): FailedRequest {
  if (error instanceof RequestError) {
    const answered = error.response !== undefined;
    return {
      status: answered ? error.status : null,
      headers: error.response?.headers ?? {},
      message: error.message,
    };
  }
  return { status: null, headers: {}, message: error instanceof Error ? error.message : String(error) };
}
