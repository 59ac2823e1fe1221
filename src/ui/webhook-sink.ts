import { createHash, randomUUID } from 'node:crypto';
import type { Notification } from '../core/notification.js';
import type { RunEventRecord, RunEventRecordSink, RunEventSink } from '../events/run-event.js';
import { openOutbox } from '../state/outbox.js';
import { newTally, notificationsFor, type RunTally, tallied } from './webhook-payload.js';
import { createWebhookSender, type WebhookSenderOptions, type WebhookTarget } from './webhook-sender.js';

export type { WebhookTarget };

/** How long the end of a run waits for its last notifications (the `run-finished` one) to go out. */
export const WEBHOOK_DRAIN_MS = 10_000;

/** A webhook as the outbox names it: a digest of its URL, which may carry a secret. */
export const webhookKey = (url: string): string =>
  createHash('sha256').update(url).digest('hex').slice(0, 16);

/**
 * The webhooks as one follower of a run's events: it keeps the run's tally
 * (stories passed, total, spend) from the events, turns the events a person
 * away from the terminal needs into notifications, and hands them to the
 * background sender; `settled` gives the last ones a bounded time to go out.
 * A webhook that fails is reported to `emit` once.
 *
 * With `outbox` (the run's `outbox.json`), each notification is owed before
 * it is sent: recorded per webhook with a `delivery` id that every try of it
 * carries (so a receiver can drop a duplicate), marked done once the webhook
 * took it; what a killed run still owed is sent when the next run starts.
 */
export function webhookSink(
  run: string,
  targets: readonly WebhookTarget[],
  emit: RunEventSink,
  sender: Partial<Omit<WebhookSenderOptions, 'targets' | 'failed'>> = {},
  outboxFile?: string,
): { follow: RunEventRecordSink; settled(): Promise<void> } {
  const outbox = outboxFile === undefined ? null : openOutbox(outboxFile);
  const byKey = new Map(targets.map((t) => [webhookKey(t.url), t]));
  /** What earlier runs owed, as the sink opened; sent once the run has started (under its lock). */
  const earlier = new Set(outbox?.pending().map((i) => i.id) ?? []);
  const send = createWebhookSender({
    ...sender,
    targets,
    failed: (failure) => emit({ type: 'webhook-failed', ...failure }),
    delivered: (_url, notification) => {
      if (outbox !== null && typeof notification.delivery === 'string') outbox.done(notification.delivery);
    },
  });
  const owe = (notification: Notification, at: Date): void => {
    if (outbox === null) {
      send.send({ ...notification, delivery: randomUUID() });
      return;
    }
    for (const target of targets) {
      if (target.events !== null && !target.events.has(notification.event)) continue;
      const delivery = randomUUID();
      const owed = { ...notification, delivery };
      outbox.record(delivery, { kind: 'webhook', target: webhookKey(target.url), notification: owed }, at);
      send.send(owed, target.url);
    }
  };
  let tally: RunTally = newTally(run);
  return {
    follow: (event: RunEventRecord) => {
      if (event.type === 'run-started' && outbox !== null) {
        // What an earlier run owed goes first; a webhook no longer configured is owed nothing.
        for (const intent of outbox.pending()) {
          if (intent.owed.kind !== 'webhook' || !earlier.has(intent.id)) continue;
          const target = byKey.get(intent.owed.target);
          if (target === undefined) outbox.done(intent.id);
          else send.send(intent.owed.notification as Notification, target.url);
        }
      }
      tally = tallied(tally, event);
      for (const notification of notificationsFor(event, tally)) owe(notification, new Date(event.at));
    },
    settled: () => send.drain(WEBHOOK_DRAIN_MS),
  };
}
