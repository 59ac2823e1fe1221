/**
 * The few REST calls a GitHub task source makes, their answers checked
 * against the shapes GitHub documents: the open issues with a label (pull
 * requests left out), labels added and removed, comments, the repository's
 * labels, and a pull request. A refusal becomes an error that says what was
 * refused and what the token needs (exit 2).
 */
import { z } from 'zod';
import { ExitCode, RalphError } from '../core/errors.js';
import { repoSlug } from '../core/github-repo.js';
import { type GithubClient, GithubRequestFailed } from './client.js';

/** An open issue as a story is made of it. */
export interface IssueFields {
  number: number;
  title: string;
  body: string;
  labels: string[];
  /** The issue's page, for messages. */
  url: string;
}

const LabelSchema = z.union([z.string(), z.object({ name: z.string() })]);

const IssueSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string().nullish(),
  labels: z.array(LabelSchema),
  html_url: z.string(),
  state: z.string(),
  /** Present on pull requests, which the issues list includes. */
  pull_request: z.unknown().optional(),
});

const PullSchema = z.object({ html_url: z.string() });

const CommentSchema = z.object({ body: z.string().nullish() });

/** What each kind of call needs, in the words of GitHub's token settings. */
export const NEEDS = {
  readIssues:
    'Issues: read (fine-grained token or GitHub App), or the repo scope (classic token; public_repo for a public repository)',
  writeIssues:
    'Issues: write (fine-grained token or GitHub App), or the repo scope (classic token; public_repo for a public repository)',
  writePulls:
    'Pull requests: write (fine-grained token or GitHub App), or the repo scope (classic token; public_repo for a public repository)',
} as const;

export type PullRequestOpened =
  | { kind: 'created' | 'exists'; url: string }
  | { kind: 'failed'; message: string };

export interface IssuesApi {
  readonly client: GithubClient;
  openIssues(label: string): Promise<IssueFields[]>;
  addLabels(issue: number, labels: readonly string[]): Promise<void>;
  /** A label the issue does not carry is not an error. */
  removeLabel(issue: number, label: string): Promise<void>;
  comment(issue: number, body: string): Promise<void>;
  /** The bodies of the issue's comments, oldest first. */
  listComments(issue: number): Promise<string[]>;
  /** Creates those of `labels` the repository lacks; proves the token may write issues. */
  ensureLabels(labels: Readonly<Record<string, { color: string; description: string }>>): Promise<void>;
  openPullRequest(pr: {
    title: string;
    body: string;
    head: string;
    base: string;
  }): Promise<PullRequestOpened>;
}

export function issuesApi(client: GithubClient, tokenFrom?: string): IssuesApi {
  const refused = (error: unknown, what: string, needs: string) =>
    explainRefusal(error, { what, needs, client, ...(tokenFrom ? { tokenFrom } : {}) });
  const attempt = async <T>(what: string, needs: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw refused(error, what, needs);
    }
  };
  const status = (error: unknown): number | null =>
    error instanceof GithubRequestFailed && error.failure.kind === 'other'
      ? error.failure.status
      : error instanceof GithubRequestFailed && error.failure.kind === 'not-found'
        ? 404
        : null;

  return {
    client,
    openIssues: (label) =>
      attempt(`list the issues labelled ${JSON.stringify(label)}`, NEEDS.readIssues, async () => {
        const items = await client.paginate('GET /repos/{owner}/{repo}/issues', {
          state: 'open',
          labels: label,
        });
        return items.flatMap((item, index) => {
          const parsed = IssueSchema.safeParse(item);
          if (!parsed.success) {
            const issue = parsed.error.issues[0];
            throw new RalphError(
              `GitHub's list of issues has an entry ralph cannot read (item ${index}: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'not an issue'})`,
              'github-answer',
              ExitCode.Usage,
            );
          }
          const i = parsed.data;
          if (i.pull_request !== undefined || i.state !== 'open') return [];
          return [
            {
              number: i.number,
              title: i.title,
              body: (i.body ?? '').replace(/\r\n?/g, '\n'),
              labels: i.labels.map((l) => (typeof l === 'string' ? l : l.name)),
              url: i.html_url,
            },
          ];
        });
      }),
    addLabels: (issue, labels) =>
      attempt(`label issue #${issue}`, NEEDS.writeIssues, async () => {
        await client.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {
          issue_number: issue,
          labels: [...labels],
        });
      }),
    removeLabel: (issue, label) =>
      attempt(`remove a label from issue #${issue}`, NEEDS.writeIssues, async () => {
        try {
          await client.request('DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', {
            issue_number: issue,
            name: label,
          });
        } catch (error) {
          if (status(error) !== 404) throw error;
        }
      }),
    comment: (issue, body) =>
      attempt(`comment on issue #${issue}`, NEEDS.writeIssues, async () => {
        await client.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
          issue_number: issue,
          body,
        });
      }),
    listComments: (issue) =>
      attempt(`read the comments of issue #${issue}`, NEEDS.readIssues, async () => {
        const items = await client.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
          issue_number: issue,
        });
        return z
          .array(CommentSchema)
          .parse(items)
          .map((c) => c.body ?? '');
      }),
    ensureLabels: (labels) =>
      attempt('create its labels', NEEDS.writeIssues, async () => {
        for (const [name, look] of Object.entries(labels)) {
          try {
            await client.request('POST /repos/{owner}/{repo}/labels', { name, ...look });
          } catch (error) {
            // 422: the label exists already. The call was allowed, which is what this proves.
            if (status(error) !== 422) throw error;
          }
        }
      }),
    openPullRequest: (pr) =>
      attempt('open a pull request', NEEDS.writePulls, async (): Promise<PullRequestOpened> => {
        try {
          const created = await client.request('POST /repos/{owner}/{repo}/pulls', pr);
          return { kind: 'created', url: PullSchema.parse(created.data).html_url };
        } catch (error) {
          if (status(error) !== 422) throw error;
          const open = await client.request('GET /repos/{owner}/{repo}/pulls', {
            head: `${client.repo.owner}:${pr.head}`,
            base: pr.base,
            state: 'open',
          });
          const existing = z.array(PullSchema).safeParse(open.data);
          const url = existing.success ? existing.data[0]?.html_url : undefined;
          return url
            ? { kind: 'exists', url }
            : { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
        }
      }),
  };
}

/** A refused call as the error that ends the command: what was refused, and what would allow it. */
export function explainRefusal(
  error: unknown,
  context: { what: string; needs: string; client: GithubClient; tokenFrom?: string },
): unknown {
  if (!(error instanceof GithubRequestFailed)) return error;
  const slug = repoSlug(context.client.repo);
  const { failure } = error;
  switch (failure.kind) {
    case 'auth':
      return new RalphError(
        `GitHub did not accept the token${context.tokenFrom ? ` from ${context.tokenFrom}` : ''}: ${failure.message}`,
        'github-auth',
        ExitCode.Usage,
        ['set GH_TOKEN or GITHUB_TOKEN to a valid token, or log in with `gh auth login`'],
      );
    case 'forbidden':
      return new RalphError(
        `the GitHub token may not ${context.what} in ${slug}: it needs ${context.needs}`,
        'github-forbidden',
        ExitCode.Usage,
        [
          `GitHub said: ${failure.message}`,
          ...(failure.accepted ? [`GitHub accepts: ${failure.accepted}`] : []),
        ],
      );
    case 'not-found':
      return new RalphError(
        `GitHub found no repository ${slug} at ${context.client.apiUrl}, or the token may not see it`,
        'github-not-found',
        ExitCode.Usage,
        [
          'check --repo (or the origin remote) and GITHUB_API_URL',
          `to read its issues the token needs ${NEEDS.readIssues}`,
        ],
      );
    default:
      return new RalphError(
        `GitHub refused to ${context.what} in ${slug}${failure.kind === 'other' ? ` (HTTP ${failure.status})` : ''}: ${failure.message}`,
        'github-refused',
        ExitCode.Usage,
      );
  }
}
