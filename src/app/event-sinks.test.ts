import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { webhookReceivers } from '../../test/support/webhook-receiver.js';
import { openEventSinks } from './event-sinks.js';

const receivers = webhookReceivers();
let dir: string | undefined;
afterEach(async () => {
  if (dir) await removeTempDir(dir);
  dir = undefined;
});

describe('openEventSinks with webhooks', () => {
  it('posts what a person needs, and reports a refusing webhook once, its secret kept out of every file', async () => {
    dir = await makeTempDir('sinks');
    const hooks = await receivers.start();
    const secret = `${hooks.url}/services/T1/B2/SeCrEt?token=abc`;
    const sinks = openEventSinks({
      run: 'demo',
      runDir: dir,
      webhooks: [{ url: secret, events: null }],
    });
    hooks.failNext(403, 403);
    sinks.emit({ type: 'story-parked', storyId: 'US-001', attempts: 3, reason: 'tests fail' });
    sinks.emit({ type: 'story-parked', storyId: 'US-002', attempts: 3, reason: 'tests fail' });
    // Not for webhooks: nothing is posted for it.
    sinks.emit({ type: 'max-iterations-changed', maxIterations: 9 });
    sinks.emit({
      type: 'run-finished',
      exitCode: 1,
      reason: 'blocked',
      message: 'stopped with work left',
      passed: 1,
      total: 3,
      parked: ['US-001', 'US-002'],
      costUsd: 0.5,
      iterations: 7,
    });
    await sinks.close();
    expect(hooks.received.map((r) => r.body.event)).toEqual(['story-parked', 'story-parked', 'run-finished']);
    const events = await readFile(`${dir}/events.jsonl`, 'utf8');
    const log = await readFile(`${dir}/ralph.log`, 'utf8');
    expect(events.match(/"type":"webhook-failed"/g)).toHaveLength(1);
    expect(log).toContain(`webhook ${hooks.url}/… could not be told of story-parked (HTTP 403`);
    for (const text of [events, log]) expect(text).not.toMatch(/SeCrEt|token=abc|T1\/B2/);
  });
});
