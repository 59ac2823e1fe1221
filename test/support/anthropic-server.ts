/**
 * A scripted Anthropic Messages API on 127.0.0.1 for driving the real Claude
 * Code CLI in tests: only the model is fake, every tool really runs.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorBody, jsonMessage, messagesBodySchema, sseFrames, toModelRequest } from './anthropic-wire.js';
import { isErrorReply, isHangReply, type ModelRequest, type Reply, type Script } from './model-script.js';
import { listenControls, parseJson, publicHeaders, readBody } from './scripted-server.js';

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string;
  url: string;
  /** Request headers without credentials. */
  headers: Record<string, string>;
  /** The parsed JSON body, or undefined when there was none. */
  body: unknown;
  /** Set for model calls: what the script was shown. */
  model?: ModelRequest;
}

export interface AnthropicServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Model calls that belong to an agent conversation (side calls excluded). */
  modelCalls(): ModelRequest[];
  /** Errors thrown by scripts; each also answered the request with a 500. */
  scriptErrors: unknown[];
  /** Stops listening (and drops open connections): the port refuses connections until `resume`. */
  pause(): Promise<void>;
  /** Listens again on the same port. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

export interface AnthropicServerOptions {
  /** Answers calls without tools (titles, summaries). Default: a short plain text. */
  sideCall?: Script;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake', ...headers });
  res.end(JSON.stringify(body));
}

async function answer(res: ServerResponse, reply: Reply, req: ModelRequest): Promise<void> {
  if (isHangReply(reply)) return;
  if (reply.delayMs) await sleep(reply.delayMs);
  if (res.destroyed) return;
  if (isErrorReply(reply)) {
    const { status, type, message, headers } = reply.error;
    sendJson(res, status, errorBody(status, type, message), headers);
    return;
  }
  if (!req.stream) {
    sendJson(res, 200, jsonMessage(reply, req.model, req.index), reply.headers);
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'request-id': 'req_fake',
    ...reply.headers,
  });
  for (const frame of sseFrames(reply, req.model, req.index)) res.write(frame);
  res.end();
}

export async function startAnthropicServer(
  script: Script,
  options: AnthropicServerOptions = {},
): Promise<AnthropicServer> {
  const requests: RecordedRequest[] = [];
  const scriptErrors: unknown[] = [];
  const sideCall: Script = options.sideCall ?? (() => ({ text: 'Scripted side reply' }));
  let modelIndex = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    const body = parseJson(raw);
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      url: req.url ?? '/',
      headers: publicHeaders(req),
      body,
    };
    requests.push(recorded);

    if (req.method === 'POST' && url.pathname === '/v1/messages/count_tokens') {
      sendJson(res, 200, { input_tokens: 100 });
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/messages') {
      // Connectivity probes (HEAD /) and anything else the CLI asks for.
      if (req.method === 'HEAD') res.writeHead(200).end();
      else sendJson(res, 200, {});
      return;
    }
    const parsed = messagesBodySchema.safeParse(body);
    if (!parsed.success || typeof body !== 'object' || body === null) {
      sendJson(res, 400, errorBody(400, undefined, 'Body is not a Messages API request'));
      return;
    }
    const headerSession = recorded.headers['x-claude-code-session-id'];
    const modelReq = toModelRequest(modelIndex++, { ...body }, parsed.data, headerSession);
    recorded.model = modelReq;
    let reply: Reply;
    try {
      reply = await (modelReq.isSideCall ? sideCall : script)(modelReq);
    } catch (error) {
      scriptErrors.push(error);
      sendJson(res, 500, errorBody(500, 'api_error', `Script failed: ${String(error)}`));
      return;
    }
    await answer(res, reply, modelReq);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      scriptErrors.push(error);
      if (!res.headersSent) sendJson(res, 500, errorBody(500, 'api_error', String(error)));
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
