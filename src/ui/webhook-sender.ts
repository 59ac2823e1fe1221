import { type Notification, type NotifyEvent, redactUrl } from '../core/notification.js';

/** One webhook: where to POST, and which notifications it wants (null: all). */
export interface WebhookTarget {
  url: string;
  events: ReadonlySet<NotifyEvent> | null;
}

export interface WebhookSenderOptions {
  targets: readonly WebhookTarget[];
  /** A webhook's delivery failed for good: said once per webhook, with its address redacted. */
  failed(failure: { webhook: string; event: NotifyEvent; error: string; tries: number }): void;
  /** A notification the webhook at `url` took (2xx): for the outbox to mark it delivered. */
  delivered?(url: string, notification: Notification): void;
  /** Tries per notification, the first included. */
  tries?: number;
  /** The wait before the second try; doubled before each further one. */
  backoffMs?: number;
  /** Per request. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface WebhookSender {
  /** Queues the notification for every webhook that wants it (or only the one at `url`); never waits, never throws. */
  send(notification: Notification, url?: string): void;
  /** Waits up to `timeoutMs` for what is queued to go out (at the end of the run). */
  drain(timeoutMs: number): Promise<void>;
}

/**
 * Delivers notifications in the background, in order per webhook, with a
 * bounded retry and backoff: a webhook that is down, slow or refusing never
 * holds up or fails the run. A webhook's first failure for good is reported
 * once; its later failures are not repeated.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const post = options.fetch ?? fetch;
  const tries = options.tries ?? 4;
  const backoffMs = options.backoffMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const queues = new Map<string, Promise<void>>();
  const reported = new Set<string>();
  /** Cuts the backoff waits still pending when a drain's time is up: those notifications are given up. */
  let giveUp = new AbortController();

  const deliver = async (url: string, notification: Notification): Promise<void> => {
    let error = '';
    for (let attempt = 1; attempt <= tries; attempt++) {
      if (attempt > 1) {
        const cut = giveUp.signal;
        await pause(backoffMs * 2 ** (attempt - 2), cut);
        if (cut.aborted) break;
      }
      const result = await postOnce(post, url, notification, timeoutMs);
      if (result.ok) {
        options.delivered?.(url, notification);
        return;
      }
      error = result.error;
      if (!result.retry) break;
    }
    if (reported.has(url)) return;
    reported.add(url);
    options.failed({ webhook: redactUrl(url), event: notification.event, error, tries });
  };

  return {
    send: (notification, url) => {
      for (const target of options.targets) {
        if (url !== undefined && target.url !== url) continue;
        if (target.events !== null && !target.events.has(notification.event)) continue;
        const previous = queues.get(target.url) ?? Promise.resolve();
        const next = previous.then(() => deliver(target.url, notification)).catch(() => undefined);
        queues.set(target.url, next);
      }
    },
    drain: async (ms) => {
      // This timer keeps the process up while the last notifications go out; the backoff's do not.
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      });
      await Promise.race([Promise.all(queues.values()), limit]);
      clearTimeout(timer);
      giveUp.abort();
      giveUp = new AbortController();
    },
  };
}

type PostResult = { ok: true } | { ok: false; retry: boolean; error: string };

async function postOnce(
  post: typeof fetch,
  url: string,
  notification: Notification,
  timeoutMs: number,
): Promise<PostResult> {
  try {
    const response = await post(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'ralph' },
      body: JSON.stringify(notification),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    // The body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    if (response.ok) return { ok: true };
    const retry = response.status >= 500 || response.status === 429 || response.status === 408;
    return { ok: false, retry, error: `HTTP ${response.status}` };
  } catch (error) {
    // The error's text can hold the URL; only its kind is kept.
    return { ok: false, retry: true, error: describeError(error) };
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = cause && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  return code ?? 'could not connect';
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
