/**
 * `--source github`: a label's open issues as the run's stories. Which
 * repository (`--repo`, else the `origin` remote), which API
 * (`GITHUB_API_URL`, else the public one), which token (`GH_TOKEN`,
 * `GITHUB_TOKEN`, else `gh auth token`); the run's name and folder
 * (`github-<label>`, `.ralph/runs/github-<label>/`) and its progress file
 * (`.ralph/github/<label>/progress.md`, committed on the run's branch like
 * a PRD's).
 */
import { InvalidInputError, UsageError } from '../core/errors.js';
import { closingLines, RALPH_LABEL_LOOKS } from '../core/github-comments.js';
import {
  PUBLIC_API_URL,
  parseRepoSlug,
  type RepoRef,
  repoFromRemoteUrl,
  repoSlug,
  webHostOf,
} from '../core/github-repo.js';
import type { ValidationIssue } from '../core/validation-issue.js';
import { hasControlCharacters } from '../core/visible-text.js';
import { remoteUrl } from '../git/remote.js';
import { createGithubClient, type GithubWait } from '../github/client.js';
import { type IssuesApi, issuesApi } from '../github/issues-api.js';
import { findGithubToken } from '../github/token.js';
import type { PullRequestHost } from '../run/on-complete.js';
import { issueNumberOf } from '../sources/github-issues.js';
import { githubTaskSource } from '../sources/github-source.js';
import type { TaskSource } from '../sources/task-source.js';
import { githubProgressPath, runDir, sanitizeName } from '../state/layout.js';
import { findProjectRoot } from '../state/project-root.js';
import type { SourceFlags } from './command-options.js';
import type { TaskContext } from './task-context.js';

export const DEFAULT_LABEL = 'ralph';

/** A run over GitHub issues: the task context, and the API its write-back uses. */
export interface GithubTaskContext extends TaskContext {
  github: { api: IssuesApi; label: string };
}

export interface GithubOpenOptions {
  cwd?: string;
  knownRoot?: string;
  env?: NodeJS.ProcessEnv;
  warn(warning: ValidationIssue): void;
  /** GitHub asked to wait (a rate limit) or did not answer: told before each wait. */
  onWait(wait: GithubWait): void;
  /** Ends the waits: the command is being stopped. */
  signal?: AbortSignal;
}

/** A label's issues, connected but not read yet: what `validate` reads and reports on itself. */
export interface GithubTasks {
  root: string;
  label: string;
  api: IssuesApi;
  source: TaskSource;
}

/** Checks the flags, finds the repository and the token, and reads the issues (exit 2 on anything wrong). */
export async function openGithubTasks(
  flags: SourceFlags,
  options: GithubOpenOptions,
): Promise<GithubTaskContext> {
  const { root, label, api, source } = await connectGithubTasks(flags, options);
  const repo = api.client.repo;
  const result = await source.read();
  if (!result.ok)
    throw new InvalidInputError(
      `the issues labelled ${JSON.stringify(label)} in ${repoSlug(repo)} are not a valid PRD`,
      result.issues,
    );
  for (const warning of result.warnings) options.warn(warning);
  const name = sanitizeName(`github-${label}`);
  return {
    root,
    target: {
      name,
      format: 'github',
      taskPath: source.path,
      progressPath: githubProgressPath(root, label),
      runDir: runDir(root, name),
    },
    livePath: source.path,
    prd: result.prd,
    source,
    pullRequests: pullRequestsOn(api),
    github: { api, label },
  };
}

/** The repository, the API and the token, checked; the issues not read yet. */
export async function connectGithubTasks(
  flags: SourceFlags,
  options: Omit<GithubOpenOptions, 'warn'>,
): Promise<GithubTasks> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const root = options.knownRoot ?? (await findProjectRoot(cwd));
  const label = checkLabel(flags.label ?? DEFAULT_LABEL);
  const givenApi = env.GITHUB_API_URL?.trim() ?? '';
  const apiUrl = checkApiUrl(givenApi || PUBLIC_API_URL);
  const repo = await whichRepo(root, flags.repo, apiUrl, givenApi !== '');
  const host = webHostOf(apiUrl) ?? 'github.com';
  const token = await findGithubToken(env, host);
  if (token === null) {
    throw new UsageError(`no GitHub token to read the issues of ${repoSlug(repo)} with`, [
      'set GH_TOKEN (or GITHUB_TOKEN), or log in with `gh auth login`',
    ]);
  }
  const client = createGithubClient({
    apiUrl,
    token: token.token,
    repo,
    onWait: options.onWait,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const api = issuesApi(client, token.from);
  return { root, label, api, source: githubTaskSource(api, label) };
}

/**
 * Before a run changes anything: the labels ralph writes exist in the
 * repository (created if not), which also proves the token may write issues
 * (a token that may only read stops here, exit 2, naming what it lacks).
 */
export async function prepareGithubRun(ctx: GithubTaskContext): Promise<void> {
  await ctx.github.api.ensureLabels(RALPH_LABEL_LOOKS);
}

/** `--pr` through the API of the issues' repository, its body closing each landed issue. */
function pullRequestsOn(api: IssuesApi): PullRequestHost {
  return {
    open: async (pr) => {
      try {
        const opened = await api.openPullRequest(pr);
        return opened.kind === 'failed' ? { ...opened, exitCode: null } : opened;
      } catch (error) {
        return {
          kind: 'failed',
          message: error instanceof Error ? error.message : String(error),
          exitCode: null,
        };
      }
    },
    notes: (storyIds) =>
      closingLines(
        storyIds.flatMap((id) => {
          const n = issueNumberOf(id);
          return n === null ? [] : [n];
        }),
      ),
  };
}

/** GitHub takes labels of up to 50 characters; ralph also refuses control characters in them. */
function checkLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed === '' || trimmed.length > 50 || hasControlCharacters(trimmed))
    throw new UsageError(
      `--label ${JSON.stringify(label)}: a GitHub label is 1 to 50 characters, without control characters`,
    );
  return trimmed;
}

function checkApiUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`GITHUB_API_URL ${JSON.stringify(url)} is not a URL`, [
      `the public API is ${PUBLIC_API_URL}; GitHub Enterprise Server's is https://HOST/api/v3`,
    ]);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new UsageError(`GITHUB_API_URL ${JSON.stringify(url)} is not an http(s) URL`);
  return url.replace(/\/+$/, '');
}

async function whichRepo(
  root: string,
  flag: string | undefined,
  apiUrl: string,
  apiGiven: boolean,
): Promise<RepoRef> {
  if (flag !== undefined) {
    const repo = parseRepoSlug(flag);
    if (repo === null) throw new UsageError(`--repo ${JSON.stringify(flag)}: expected OWNER/REPO`);
    return repo;
  }
  const url = await remoteUrl(root, 'origin');
  const found = url === null ? null : repoFromRemoteUrl(url);
  if (found === null) {
    throw new UsageError('cannot tell which GitHub repository holds the issues', [
      url === null ? 'there is no origin remote' : `the origin remote (${url}) is not a GitHub URL`,
      'pass --repo OWNER/REPO',
    ]);
  }
  // An Enterprise remote with the public API would ask github.com about a repository it may not have.
  if (!apiGiven && found.host !== webHostOf(apiUrl)) {
    throw new UsageError(`origin is on ${found.host}, but GITHUB_API_URL is not set`, [
      `for GitHub Enterprise Server set GITHUB_API_URL=https://${found.host}/api/v3`,
    ]);
  }
  return { owner: found.owner, repo: found.repo };
}
