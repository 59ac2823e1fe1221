import type { AlertWishes } from '../notify/desktop.js';
import type { WebhookTarget } from '../notify/webhook-sink.js';
import type { Config } from '../state/config.js';

/**
 * The webhooks of one run: the config's `notify.webhooks` and the command
 * line's `--notify` URLs (each once), every one told of the config's
 * `notify.events` (all of them when it names none).
 */
export function webhookTargets(config: Config, urls: readonly string[] = []): WebhookTarget[] {
  const notify = config.notify ?? { webhooks: [], events: null };
  const events = notify.events === null ? null : new Set(notify.events);
  return [...new Set([...notify.webhooks, ...urls])].map((url) => ({ url, events }));
}

/**
 * The bell and the desktop notification of a run: `notifications:` in the
 * config, where `notify:` (the webhooks' section) may set either too.
 */
export function alertWishes(config: Config): AlertWishes {
  return {
    bell: config.notify?.bell ?? config.notifications.bell,
    desktop: config.notify?.desktop ?? config.notifications.desktop,
  };
}
