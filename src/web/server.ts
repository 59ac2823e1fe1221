/**
 * `ralph serve`'s HTTP server: the page, its script and style, the
 * project's view as JSON, its live stream, and the two actions. Every
 * request needs the token; every response carries a CSP that runs only the
 * page's own script and loads nothing from elsewhere.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type ActionReply, answer, control } from './actions.js';
import {
  type Credentials,
  checkAccess,
  credentialsFor,
  csrfProblem,
  hostAllowed,
  sessionCookie,
} from './auth.js';
import type { PageAssets } from './page-assets.js';
import { ProjectWatch } from './project-watch.js';
import { pageJson, StreamHub } from './stream-hub.js';
import { API } from './view.js';

/** Larger bodies are refused: an answer is at most 20,000 characters. */
const MAX_BODY_BYTES = 256 * 1024;

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
} as const;

export interface ServeOptions {
  root: string;
  host: string;
  /** 0: any free port. */
  port: number;
  token: string;
  assets: PageAssets;
  /** How often the project's files are looked at (default 1 s). */
  intervalMs?: number;
}

export interface Serving {
  port: number;
  close(): Promise<void>;
}

export async function startServing(options: ServeOptions): Promise<Serving> {
  const hub = new StreamHub();
  const watch = new ProjectWatch({
    root: options.root,
    intervalMs: options.intervalMs ?? 1000,
    onView: (view) => hub.view(view),
    onLog: (run, lines, reset) => hub.log(run, lines, reset),
  });
  await watch.start();
  let credentials: Credentials | null = null;
  let port = options.port;
  const server = createServer((request, response) => {
    if (credentials === null) return void response.writeHead(503).end();
    if (!hostAllowed(options.host, port, request.headers.host)) {
      // Another name resolving here (DNS rebinding): refused before the token is even looked at.
      return send(response, 421, 'text/plain', 'ralph serve: this server is not known by that name\n');
    }
    handle(request, response, { credentials, watch, hub, assets: options.assets }).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, 'text/plain', `ralph serve: ${messageOf(error)}`);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : options.port;
  credentials = credentialsFor(options.token, port);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        watch.close();
        hub.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface Context {
  credentials: Credentials;
  watch: ProjectWatch;
  hub: StreamHub;
  assets: PageAssets;
}

async function handle(request: IncomingMessage, response: ServerResponse, ctx: Context): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://ralph.invalid');
  const access = checkAccess(ctx.credentials, url, request.headers);
  if (access.kind === 'denied') {
    return send(
      response,
      401,
      'text/plain',
      'ralph serve: this page needs the token `ralph serve` printed (…/?token=…)\n',
    );
  }
  if (access.kind === 'from-url') {
    // The token leaves the address bar (and the history) for a cookie scripts cannot read.
    response.writeHead(303, {
      ...SECURITY_HEADERS,
      'set-cookie': sessionCookie(ctx.credentials),
      location: access.cleanUrl,
    });
    return void response.end();
  }
  const method = request.method ?? 'GET';
  const action = /^\/api\/runs\/([A-Za-z0-9._-]{1,100})\/(answer|control)$/.exec(url.pathname);
  if (action !== null) {
    if (method !== 'POST') return send(response, 405, 'text/plain', 'POST only\n', { allow: 'POST' });
    return act(request, response, ctx, action[1] ?? '', action[2] === 'answer' ? answer : control);
  }
  if (!GET_PATHS.has(url.pathname)) return send(response, 404, 'text/plain', 'not found\n');
  if (method !== 'GET' && method !== 'HEAD')
    return send(response, 405, 'text/plain', 'GET only\n', { allow: 'GET' });
  switch (url.pathname) {
    case '/':
      // Only the CSRF token (hex) goes into the page's HTML; nothing from the project does.
      return send(response, 200, 'text/html', ctx.assets.html.replace('{{csrf}}', ctx.credentials.csrf));
    case '/page.js':
      return send(response, 200, 'text/javascript', ctx.assets.js);
    case '/page.css':
      return send(response, 200, 'text/css', ctx.assets.css);
    case '/favicon.svg':
      return send(response, 200, 'image/svg+xml', ctx.assets.icon);
    case API.project:
      return send(response, 200, 'application/json', pageJson(ctx.watch.view));
    default: {
      const run = url.searchParams.get('run');
      const shown = run !== null && ctx.watch.find(run) !== null ? run : null;
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
      return ctx.hub.open(response, shown, ctx.watch.view, shown === null ? [] : ctx.watch.recent(shown));
    }
  }
}

const GET_PATHS = new Set(['/', '/page.js', '/page.css', '/favicon.svg', API.project, API.stream]);

async function act(
  request: IncomingMessage,
  response: ServerResponse,
  ctx: Context,
  run: string,
  action: (watch: ProjectWatch, run: string, body: unknown) => Promise<ActionReply>,
): Promise<void> {
  const problem = csrfProblem(ctx.credentials, request.headers);
  if (problem !== null) return send(response, 403, 'application/json', JSON.stringify({ message: problem }));
  const raw = await readBody(request);
  if (raw === null)
    return send(response, 413, 'application/json', JSON.stringify({ message: 'body too large' }));
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return send(response, 400, 'application/json', JSON.stringify({ message: 'the body is not JSON' }));
  }
  const reply = await action(ctx.watch, run, body);
  send(response, reply.status, 'application/json', pageJson({ message: reply.message }));
}

/** The request's body, or null when it passes the limit (the rest is read and dropped). */
function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  response.writeHead(status, { ...SECURITY_HEADERS, ...extra, 'content-type': `${type}; charset=utf-8` });
  response.end(body);
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
