/**
 * Webhook notifications (`--notify URL`, `notify:` in the config): which
 * happenings a person far from the terminal hears about, and how a
 * webhook's address is shown without the secret it carries.
 */

/** What a webhook can be told, in the order a night's run meets them. */
export const NOTIFY_EVENTS = [
  'question',
  'story-parked',
  'waiting',
  'auth-failed',
  'limit-reached',
  'stop-requested',
  'run-finished',
] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

/** The body of every webhook POST. Slack-style incoming webhooks show `text` as it is. */
export interface Notification {
  event: NotifyEvent;
  /** One sentence for a person, control characters made visible. */
  text: string;
  /** The PRD's name, or the goal run's. */
  prd: string;
  /** Set for a goal run: the goal's first line. */
  goal?: string;
  /** The story concerned, where there is one. */
  story?: string;
  /** Stories passed (a goal run: steps completed) out of `total`. */
  passed: number;
  total: number;
  /** Spent on the run so far. */
  costUsd: number;
  /** When it happened (ISO 8601). */
  at: string;
  [detail: string]: unknown;
}

/**
 * A webhook URL as given (`--notify`, the config): http or https only, so a
 * typo is refused before the run starts rather than failing at 3 a.m.
 */
export function checkWebhookUrl(text: string): { ok: true; url: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      reason: `${url.protocol.replace(/:$/, '')} URLs cannot be posted to; use http or https`,
    };
  }
  return { ok: true, url: url.toString() };
}

/**
 * How a webhook is named in logs: scheme and host only. The path, query and
 * user info of an incoming-webhook URL are its secret (Slack's
 * `/services/T…/B…/…`, a `?token=`), so they are never shown.
 */
export function redactUrl(text: string): string {
  try {
    const url = new URL(text);
    const hidden = url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '';
    return `${url.protocol}//${url.host}${hidden ? '/…' : '/'}`;
  } catch {
    return '(a webhook URL that cannot be read)';
  }
}
