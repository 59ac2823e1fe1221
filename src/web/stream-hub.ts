import type { ServerResponse } from 'node:http';
import { visibleText } from '../core/visible-text.js';
import type { LogBatch, LogLine, ProjectView } from './view.js';

/** A client this far behind (a phone on a bad line) is dropped; its EventSource reconnects and starts afresh. */
const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;

interface Client {
  response: ServerResponse;
  /** The run whose log the page shows, or null for none. */
  run: string | null;
}

/**
 * JSON for the page: every string with its control characters shown as
 * symbols, as everywhere ralph shows others' text to a person.
 */
export const pageJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? visibleText(v) : v));

/**
 * The page's server-sent events: `project` (the whole project's view, when
 * it changes) and `log` (a run's new log lines, for pages showing that run).
 */
export class StreamHub {
  readonly #clients = new Set<Client>();
  readonly #heartbeat: ReturnType<typeof setInterval>;

  constructor() {
    // A comment line keeps proxies and phones from closing a quiet stream.
    this.#heartbeat = setInterval(() => {
      for (const client of this.#clients) this.#send(client, ': ping\n\n');
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** Opens the stream: the current view and the run's recent log lines go first. */
  open(response: ServerResponse, run: string | null, view: ProjectView, recent: readonly LogLine[]): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    const client: Client = { response, run };
    this.#clients.add(client);
    response.on('close', () => this.#clients.delete(client));
    this.#send(client, message('project', view));
    if (run !== null)
      this.#send(client, message('log', { run, lines: [...recent], reset: true } satisfies LogBatch));
  }

  view(view: ProjectView): void {
    const text = message('project', view);
    for (const client of this.#clients) this.#send(client, text);
  }

  log(run: string, lines: LogLine[], reset: boolean): void {
    const text = message('log', { run, lines, reset } satisfies LogBatch);
    for (const client of this.#clients) if (client.run === run) this.#send(client, text);
  }

  close(): void {
    clearInterval(this.#heartbeat);
    for (const client of this.#clients) client.response.end();
    this.#clients.clear();
  }

  #send(client: Client, text: string): void {
    if (client.response.writableLength > MAX_BACKLOG_BYTES) {
      this.#clients.delete(client);
      client.response.destroy();
      return;
    }
    client.response.write(text);
  }
}

const message = (event: string, data: unknown): string => `event: ${event}\ndata: ${pageJson(data)}\n\n`;
