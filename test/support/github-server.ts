/**
 * A scripted GitHub REST API on 127.0.0.1, speaking GitHub's documented wire
 * format for the calls a GitHub task source makes: the issues list (state and
 * label filters, pull requests included as GitHub includes them, pages with a
 * `link` header), labels added to and removed from an issue, the
 * repository's labels, issue comments and pull requests. Issues and labels
 * are built from responses recorded from api.github.com
 * (test/fixtures/github/). Tokens are checked (401 "Bad credentials"), a
 * read-only token is refused writes with 403 and the permission GitHub says
 * it needs, and the next answers can be scripted (a rate limit, an outage).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/github/${name}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
const RECORDED_ISSUE = fixture('recorded-issue.json');
const RECORDED_LABEL = fixture('recorded-label.json');
const RECORDED_HEADERS = fixture('recorded-list-headers.json');

export interface SeedIssue {
  number: number;
  title: string;
  body?: string;
  labels?: string[];
  state?: 'open' | 'closed';
  /** A pull request, which GitHub's issues list includes. */
  pullRequest?: boolean;
}

export interface GithubComment {
  issue: number;
  body: string;
}

export interface GithubPull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  html_url: string;
}

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** An answer the server gives instead of the real one, once. */
export interface ScriptedFailure {
  status: number;
  message: string;
  headers?: Record<string, string>;
  /** No answer at all: the connection is closed. */
  drop?: boolean;
  /** Only for this call (`POST /repos/o/r/issues/2/comments`, `GET /repos/o/r/issues`); default the next call. */
  on?: string;
  /** With `on`: the nth such call (1 = the next one). */
  nth?: number;
}

export interface GithubServerOptions {
  owner: string;
  repo: string;
  token: string;
  issues: SeedIssue[];
  /** Labels the repository has already. */
  labels?: string[];
  /** Issues per page, whatever `per_page` asks (to make a short list take several pages). */
  pageSize?: number;
  /** `read`: writes are refused (403); `none`: everything is (403). */
  permission?: 'write' | 'read' | 'none';
  /** Where the API lives on the server, as GitHub Enterprise Server's `/api/v3`. */
  basePath?: string;
}

export interface GithubServer {
  /** For `GITHUB_API_URL`. */
  url: string;
  calls: RecordedCall[];
  comments: GithubComment[];
  pulls: GithubPull[];
  labelsOf(issue: number): string[];
  repoLabels(): string[];
  /** The next answers, in order, whatever is asked. */
  failNext(...failures: ScriptedFailure[]): void;
  close(): Promise<void>;
}

interface IssueState extends SeedIssue {
  labels: string[];
}

export async function startGithubServer(options: GithubServerOptions): Promise<GithubServer> {
  const issues = new Map<number, IssueState>(
    options.issues.map((i) => [i.number, { ...i, labels: [...(i.labels ?? [])] }]),
  );
  const repoLabels = new Set(options.labels ?? []);
  const calls: RecordedCall[] = [];
  const comments: GithubComment[] = [];
  const pulls: GithubPull[] = [];
  const failures: ScriptedFailure[] = [];
  /** Calls per route so far, for `nth`. */
  const seen = new Map<string, number>();
  const prefix = `/repos/${options.owner}/${options.repo}`;
  let base = '';

  const issueJson = (i: IssueState) => {
    const api = `${base}${prefix}/issues/${i.number}`;
    return {
      ...RECORDED_ISSUE,
      url: api,
      repository_url: `${base}${prefix}`,
      labels_url: `${api}/labels{/name}`,
      comments_url: `${api}/comments`,
      events_url: `${api}/events`,
      html_url: `https://github.example/${options.owner}/${options.repo}/${i.pullRequest ? 'pull' : 'issues'}/${i.number}`,
      id: 1000 + i.number,
      number: i.number,
      title: i.title,
      body: i.body ?? null,
      labels: i.labels.map(labelJson),
      state: i.state ?? 'open',
      comments: comments.filter((c) => c.issue === i.number).length,
      timeline_url: `${api}/timeline`,
      ...(i.pullRequest
        ? {
            pull_request: {
              url: `${base}${prefix}/pulls/${i.number}`,
              html_url: `https://github.example/${options.owner}/${options.repo}/pull/${i.number}`,
            },
          }
        : {}),
    };
  };
  const labelJson = (name: string) => ({
    ...RECORDED_LABEL,
    url: `${base}${prefix}/labels/${encodeURIComponent(name)}`,
    name,
  });

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      send(res, 500, { message: String(error) });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    const asked = new URL(url);
    if (options.basePath) {
      if (!url.pathname.startsWith(`${options.basePath}/`)) return send(res, 404, { message: 'Not Found' });
      url.pathname = url.pathname.slice(options.basePath.length);
    }
    const body = await readJson(req);
    const method = req.method ?? 'GET';
    calls.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), body });
    const route = `${method} ${url.pathname}`;
    seen.set(route, (seen.get(route) ?? 0) + 1);
    const at = failures.findIndex(
      (f) => f.on === undefined || (f.on === route && (f.nth === undefined || f.nth === seen.get(route))),
    );
    const failure = at === -1 ? undefined : failures.splice(at, 1)[0];
    if (failure?.drop) {
      req.socket.destroy();
      return;
    }
    if (failure)
      return send(
        res,
        failure.status,
        { message: failure.message, documentation_url: DOCS },
        failure.headers,
      );
    const auth = req.headers.authorization ?? '';
    if (auth.replace(/^(token|bearer)\s+/i, '') !== options.token)
      return send(res, 401, { message: 'Bad credentials', documentation_url: DOCS });
    const writes = method !== 'GET';
    if (options.permission === 'none' || (options.permission === 'read' && writes)) {
      return send(
        res,
        403,
        { message: 'Resource not accessible by personal access token', documentation_url: DOCS },
        {
          'x-accepted-github-permissions': url.pathname.includes('/pulls')
            ? 'pull_requests=write'
            : 'issues=write',
        },
      );
    }
    if (!url.pathname.startsWith(`${prefix}/`))
      return send(res, 404, { message: 'Not Found', documentation_url: DOCS });
    const path = url.pathname.slice(prefix.length);
    const record = body as Record<string, unknown> | undefined;

    if (method === 'GET' && path === '/issues') return listIssues(asked, res);
    const one = /^\/issues\/(\d+)(\/.*)?$/.exec(path);
    const issue = one ? issues.get(Number(one[1])) : undefined;
    if (one && !issue) return send(res, 404, { message: 'Not Found', documentation_url: DOCS });
    if (issue && method === 'POST' && one?.[2] === '/labels') {
      const names = Array.isArray(record?.labels) ? record.labels.map(String) : [];
      if (names.length === 0) return unprocessable(res, 'Label', 'missing_field', 'labels');
      for (const name of names) {
        repoLabels.add(name);
        if (!issue.labels.includes(name)) issue.labels.push(name);
      }
      return send(res, 200, issue.labels.map(labelJson));
    }
    const removal = one?.[2] ? /^\/labels\/(.+)$/.exec(one[2]) : null;
    if (issue && method === 'DELETE' && removal?.[1]) {
      const name = decodeURIComponent(removal[1]);
      if (!issue.labels.includes(name))
        return send(res, 404, { message: 'Label does not exist', documentation_url: DOCS });
      issue.labels = issue.labels.filter((l) => l !== name);
      return send(res, 200, issue.labels.map(labelJson));
    }
    if (issue && method === 'GET' && one?.[2] === '/comments') {
      return send(
        res,
        200,
        comments.flatMap((c, i) =>
          c.issue === issue.number
            ? [
                {
                  id: i + 1,
                  body: c.body,
                  html_url: `https://github.example/${options.owner}/${options.repo}/issues/${issue.number}#issuecomment-${i + 1}`,
                },
              ]
            : [],
        ),
      );
    }
    if (issue && method === 'POST' && one?.[2] === '/comments') {
      if (typeof record?.body !== 'string')
        return unprocessable(res, 'IssueComment', 'missing_field', 'body');
      comments.push({ issue: issue.number, body: record.body });
      return send(res, 201, {
        id: comments.length,
        html_url: `https://github.example/${options.owner}/${options.repo}/issues/${issue.number}#issuecomment-${comments.length}`,
        body: record.body,
        created_at: new Date().toISOString(),
      });
    }
    if (method === 'POST' && path === '/labels') {
      const name = String(record?.name ?? '');
      if (repoLabels.has(name)) return unprocessable(res, 'Label', 'already_exists', 'name');
      repoLabels.add(name);
      return send(res, 201, {
        ...labelJson(name),
        color: record?.color,
        description: record?.description ?? null,
      });
    }
    if (method === 'POST' && path === '/pulls') {
      const head = String(record?.head ?? '');
      if (pulls.some((p) => p.head === head)) {
        return send(res, 422, {
          message: 'Validation Failed',
          errors: [
            {
              resource: 'PullRequest',
              code: 'custom',
              message: `A pull request already exists for ${options.owner}:${head}.`,
            },
          ],
          documentation_url: DOCS,
        });
      }
      const number = 100 + pulls.length;
      const pull: GithubPull = {
        number,
        title: String(record?.title ?? ''),
        body: String(record?.body ?? ''),
        head,
        base: String(record?.base ?? ''),
        html_url: `https://github.example/${options.owner}/${options.repo}/pull/${number}`,
      };
      pulls.push(pull);
      return send(res, 201, { ...pull, state: 'open', url: `${base}${prefix}/pulls/${number}` });
    }
    if (method === 'GET' && path === '/pulls') {
      const head = url.searchParams.get('head')?.replace(/^[^:]+:/, '');
      return send(
        res,
        200,
        pulls.filter((p) => head === undefined || p.head === head),
      );
    }
    return send(res, 404, { message: 'Not Found', documentation_url: DOCS });
  }

  function listIssues(url: URL, res: ServerResponse): void {
    const state = url.searchParams.get('state') ?? 'open';
    const wanted = (url.searchParams.get('labels') ?? '').split(',').filter((l) => l !== '');
    const perPage = options.pageSize ?? Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
    // GitHub lists the newest first.
    const matching = [...issues.values()]
      .filter((i) => state === 'all' || (i.state ?? 'open') === state)
      .filter((i) => wanted.every((l) => i.labels.includes(l)))
      .sort((a, b) => b.number - a.number);
    const last = Math.max(1, Math.ceil(matching.length / perPage));
    const pageUrl = (n: number) => {
      const next = new URL(url);
      next.searchParams.set('page', String(n));
      return `<${next.href}>`;
    };
    const links = [
      ...(page < last ? [`${pageUrl(page + 1)}; rel="next"`, `${pageUrl(last)}; rel="last"`] : []),
      ...(page > 1 ? [`${pageUrl(1)}; rel="first"`, `${pageUrl(page - 1)}; rel="prev"`] : []),
    ];
    send(
      res,
      200,
      matching.slice((page - 1) * perPage, page * perPage).map(issueJson),
      links.length > 0 ? { link: links.join(', ') } : {},
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
  return {
    url: base,
    calls,
    comments,
    pulls,
    labelsOf: (n) => [...(issues.get(n)?.labels ?? [])],
    repoLabels: () => [...repoLabels],
    failNext: (...next) => failures.push(...next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const DOCS = 'https://docs.github.com/rest';

/** GitHub's answer headers: the recorded rate-limit headers, and the media type. */
function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const { link: _recordedLink, ...recorded } = RECORDED_HEADERS as Record<string, string>;
  res.writeHead(status, {
    ...recorded,
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    ...headers,
  });
  res.end(JSON.stringify(body));
}

function unprocessable(res: ServerResponse, resource: string, code: string, field: string): void {
  send(res, 422, {
    message: 'Validation Failed',
    errors: [{ resource, code, field }],
    documentation_url: DOCS,
  });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}
