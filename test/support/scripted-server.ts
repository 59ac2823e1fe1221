/**
 * The HTTP side shared by the scripted model servers of every wire format
 * (OpenAI Responses, Chat Completions, Gemini): record each request, turn a
 * model call into a `ModelRequest`, ask the script, write the answer in the
 * wire's own shape. Only the model is fake; the agent CLI runs for real.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ErrorReply,
  isErrorReply,
  isHangReply,
  type MessageReply,
  type ModelRequest,
  type Script,
} from './model-script.js';
import { adaptReplyTools } from './wire-tools.js';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  url: string;
  /** Request headers without credentials. */
  headers: Record<string, string>;
  /** The parsed JSON body, or undefined when there was none. */
  body: unknown;
  /** Set for model calls: what the script was shown. */
  model?: ModelRequest;
}

export interface ScriptedServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Model calls that belong to an agent conversation (side calls excluded). */
  modelCalls(): ModelRequest[];
  /** Errors thrown by scripts; each also answered the request with a 500. */
  scriptErrors: unknown[];
  close(): Promise<void>;
}

/** A server that can stop answering for a while: its port refuses connections, as an API down would. */
export interface PausableServer extends ScriptedServer {
  /** Stops listening (and drops open connections): the port refuses connections until `resume`. */
  pause(): Promise<void>;
  /** Listens again on the same port. */
  resume(): Promise<void>;
}

/** `pause`, `resume` and `close` of a listening server, whichever wire it speaks. */
export function listenControls(
  server: Server,
  port: number,
): Pick<PausableServer, 'pause' | 'resume' | 'close'> {
  return {
    pause: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    resume: () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface ScriptedServerOptions {
  /** Answers calls without tools (titles, routing, summaries). Default: the wire's own. */
  sideCall?: Script;
}

export interface IncomingCall {
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** One wire format: which requests are model calls, how to read them and how to answer. */
export interface Wire {
  isModelCall(method: string, path: string): boolean;
  /** Undefined when the body is not a request of this wire (answered with a 400). */
  toModelRequest(index: number, call: IncomingCall): ModelRequest | undefined;
  defaultSideCall: Script;
  writeReply(res: ServerResponse, reply: MessageReply, req: ModelRequest): void;
  errorBody(reply: ErrorReply): unknown;
}

/** Credentials of every wire; recorded requests never hold them. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'proxy-authorization']);

export function publicHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (SECRET_HEADERS.has(name) || value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function startSse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
}

export async function startScriptedServer(
  wire: Wire,
  script: Script,
  options: ScriptedServerOptions = {},
): Promise<PausableServer> {
  const requests: RecordedRequest[] = [];
  const scriptErrors: unknown[] = [];
  const sideCall = options.sideCall ?? wire.defaultSideCall;
  let modelIndex = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = parseJson(await readBody(req));
    const headers = publicHeaders(req);
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      url: req.url ?? '/',
      headers,
      body,
    };
    requests.push(recorded);
    if (!wire.isModelCall(recorded.method, url.pathname)) {
      if (req.method === 'HEAD') res.writeHead(200).end();
      else sendJson(res, 404, { error: { message: `No route for ${req.method} ${url.pathname}` } });
      return;
    }
    const modelReq = isRecord(body)
      ? wire.toModelRequest(modelIndex, { path: url.pathname, query: url.searchParams, headers, body })
      : undefined;
    if (modelReq === undefined) {
      sendJson(res, 400, { error: { code: 400, message: 'Body is not a request of this API' } });
      return;
    }
    modelIndex += 1;
    recorded.model = modelReq;
    let reply: Awaited<ReturnType<Script>>;
    try {
      reply = await (modelReq.isSideCall ? sideCall : script)(modelReq);
    } catch (error) {
      scriptErrors.push(error);
      sendJson(
        res,
        500,
        wire.errorBody({ error: { status: 500, message: `Script failed: ${String(error)}` } }),
      );
      return;
    }
    if (isHangReply(reply)) return;
    if (reply.delayMs) await sleep(reply.delayMs);
    if (res.destroyed) return;
    if (isErrorReply(reply)) {
      sendJson(res, reply.error.status, wire.errorBody(reply), reply.error.headers);
      return;
    }
    wire.writeReply(res, adaptReplyTools(reply, modelReq.toolNames), modelReq);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      scriptErrors.push(error);
      if (!res.headersSent) sendJson(res, 500, { error: { code: 500, message: String(error) } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The fake server has no TCP address');
  const { port } = address;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    scriptErrors,
    modelCalls: () => requests.flatMap((r) => (r.model && !r.model.isSideCall ? [r.model] : [])),
    ...listenControls(server, port),
  };
}
