/** A webhook endpoint on 127.0.0.1, as Slack's incoming webhooks take them: JSON POSTs, recorded. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface ReceivedHook {
  method: string;
  path: string;
  contentType: string;
  body: Record<string, unknown>;
}

export interface WebhookReceiver {
  /** The base URL, e.g. `http://127.0.0.1:PORT`. */
  url: string;
  received: ReceivedHook[];
  /** The bodies of the notifications of one kind (`event` field). */
  events(kind: string): Record<string, unknown>[];
  /** Answers the next requests with these statuses (then 200). */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const failures: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { unparsed: text };
      }
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        body,
      });
      res.writeHead(failures.shift() ?? 200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    events: (kind) => received.filter((r) => r.body.event === kind).map((r) => r.body),
    failNext: (...statuses) => failures.push(...statuses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** For a test file: `start` opens a receiver, closed after each test. */
export function webhookReceivers(): { start(): Promise<WebhookReceiver> } {
  const open: WebhookReceiver[] = [];
  afterEach(async () => {
    for (const receiver of open.splice(0)) await receiver.close();
  });
  return {
    start: async () => {
      const receiver = await startWebhookReceiver();
      open.push(receiver);
      return receiver;
    },
  };
}
