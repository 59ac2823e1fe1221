import type { RunEventRecord, RunEventRecordSink, RunEventSink } from '../events/run-event.js';
import { newTally, notificationsFor, type RunTally, tallied } from './webhook-payload.js';
import { createWebhookSender, type WebhookSenderOptions, type WebhookTarget } from './webhook-sender.js';

export type { WebhookTarget };

/** How long the end of a run waits for its last notifications (the `run-finished` one) to go out. */
export const WEBHOOK_DRAIN_MS = 10_000;

/**
 * The webhooks as one follower of a run's events: it keeps the run's tally
 * (stories passed, total, spend) from the events, turns the events a person
 * away from the terminal needs into notifications, and hands them to the
 * background sender; `settled` gives the last ones a bounded time to go out.
 * A webhook that fails is reported to `emit` once.
 */
export function webhookSink(
  run: string,
  targets: readonly WebhookTarget[],
  emit: RunEventSink,
  sender: Partial<Omit<WebhookSenderOptions, 'targets' | 'failed'>> = {},
): { follow: RunEventRecordSink; settled(): Promise<void> } {
  const send = createWebhookSender({
    ...sender,
    targets,
    failed: (failure) => emit({ type: 'webhook-failed', ...failure }),
  });
  let tally: RunTally = newTally(run);
  return {
    follow: (event: RunEventRecord) => {
      tally = tallied(tally, event);
      for (const notification of notificationsFor(event, tally)) send.send(notification);
    },
    settled: () => send.drain(WEBHOOK_DRAIN_MS),
  };
}
