import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/support/webhook-receiver.js';
import type { Notification } from '../core/notification.js';
import { createWebhookSender } from './webhook-sender.js';

let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const note = (event: Notification['event'], text = 'hello'): Notification => ({
  event,
  text,
  prd: 'demo',
  passed: 1,
  total: 3,
  costUsd: 0.5,
  at: '2026-01-02T10:00:00.000Z',
});

describe('the webhook sender', () => {
  it('posts JSON in order, and only the events a webhook wants', async () => {
    receiver = await startWebhookReceiver();
    const failures: unknown[] = [];
    const sender = createWebhookSender({
      targets: [
        { url: `${receiver.url}/all`, events: null },
        { url: `${receiver.url}/end`, events: new Set(['run-finished']) },
      ],
      failed: (f) => failures.push(f),
    });
    sender.send(note('question', 'one'));
    sender.send(note('story-parked', 'two'));
    sender.send(note('run-finished', 'three'));
    await sender.drain(5000);
    const all = receiver.received.filter((r) => r.path === '/all');
    expect(all.map((r) => r.body.text)).toEqual(['one', 'two', 'three']);
    expect(all.every((r) => r.contentType === 'application/json' && r.method === 'POST')).toBe(true);
    expect(receiver.received.filter((r) => r.path === '/end').map((r) => r.body.event)).toEqual([
      'run-finished',
    ]);
    expect(failures).toEqual([]);
  });

  it('retries a 500 with backoff, gives up on a 404 at once, and reports a webhook once, without its secret', async () => {
    receiver = await startWebhookReceiver();
    const failures: { webhook: string; event: string; error: string; tries: number }[] = [];
    const sender = createWebhookSender({
      targets: [{ url: `${receiver.url}/services/T1/B2/secret?token=xyz`, events: null }],
      failed: (f) => failures.push(f),
      backoffMs: 10,
      tries: 3,
    });
    receiver.failNext(500, 503);
    sender.send(note('question', 'retried'));
    await sender.drain(5000);
    expect(receiver.received.map((r) => r.body.text)).toEqual(['retried', 'retried', 'retried']);
    expect(failures).toEqual([]);

    receiver.failNext(404, 500, 500, 500);
    sender.send(note('story-parked', 'refused'));
    sender.send(note('run-finished', 'down'));
    await sender.drain(5000);
    // The 404 is not retried; the 500s use up the three tries.
    expect(receiver.received.slice(3).map((r) => r.body.text)).toEqual(['refused', 'down', 'down', 'down']);
    expect(failures).toEqual([
      { webhook: `${receiver.url}/…`, event: 'story-parked', error: 'HTTP 404', tries: 3 },
    ]);
    expect(JSON.stringify(failures)).not.toMatch(/secret|token|T1/);
  });

  it('never throws or waits for an unreachable webhook, and the drain is bounded', async () => {
    receiver = await startWebhookReceiver();
    const dead = receiver.url;
    await receiver.close();
    const failures: { error: string }[] = [];
    const sender = createWebhookSender({
      targets: [{ url: `${dead}/hook`, events: null }],
      failed: (f) => failures.push(f),
      backoffMs: 60_000,
    });
    const started = Date.now();
    sender.send(note('question'));
    expect(Date.now() - started).toBeLessThan(1000);
    await sender.drain(200);
    // The backoff was cut short by the drain's end: the give-up is reported once.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(failures).toHaveLength(1);
    expect(failures[0]?.error).toBe('ECONNREFUSED');
    receiver = undefined;
  });
});
