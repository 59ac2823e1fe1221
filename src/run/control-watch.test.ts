import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import type { RunEvent } from '../events/run-event.js';
import { acquireLock, type LockHandle } from '../state/lock.js';
import { controlFile, writeControlRequest } from '../state/run-control.js';
import { watchControlFile } from './control-watch.js';

let dir: string;
let lock: LockHandle;
beforeEach(async () => {
  dir = await makeTempDir('control');
  lock = await acquireLock(join(dir, 'lock'));
});
afterEach(async () => {
  await lock.release();
  await removeTempDir(dir);
});

async function until(what: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!what()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

function watch(signals = { stop: new AbortController(), kill: new AbortController() }) {
  const events: RunEvent[] = [];
  const control = watchControlFile({
    runDir: dir,
    lock: lock.info,
    stop: signals.stop.signal,
    kill: signals.kill.signal,
    emit: (event) => events.push(event),
    intervalMs: 20,
  });
  return { control, events, signals };
}

describe('watchControlFile', () => {
  it('pause is the first Ctrl-C: stop, not kill; stop then is the second', async () => {
    const { control, events } = watch();
    await writeControlRequest(dir, 'pause', lock.info, 'web page');
    await until(() => control.stop.aborted);
    expect(control.kill.aborted).toBe(false);
    await writeControlRequest(dir, 'stop', lock.info, 'web page');
    await until(() => control.kill.aborted);
    expect(events).toEqual([
      { type: 'stop-requested', how: 'graceful', from: 'web page' },
      { type: 'stop-requested', how: 'immediate', from: 'web page' },
    ]);
    await control.dispose();
    expect(existsSync(controlFile(dir))).toBe(false);
  });

  it('stop straight away stops and kills', async () => {
    const { control, events } = watch();
    await writeControlRequest(dir, 'stop', lock.info, 'web page');
    await until(() => control.kill.aborted);
    expect(control.stop.aborted).toBe(true);
    expect(events).toEqual([{ type: 'stop-requested', how: 'immediate', from: 'web page' }]);
    await control.dispose();
  });

  it('ignores a request left for another run, and keeps it', async () => {
    const { control, events } = watch();
    await writeControlRequest(
      dir,
      'stop',
      { ...lock.info, startedAt: '2020-01-01T00:00:00.000Z' },
      'web page',
    );
    await sleep(150);
    expect(control.stop.aborted || control.kill.aborted).toBe(false);
    expect(events).toEqual([]);
    await control.dispose();
    expect(existsSync(controlFile(dir))).toBe(true);
  });

  it("passes the run's own signals through, and a pause after Ctrl-C adds nothing", async () => {
    const { control, events, signals } = watch();
    signals.stop.abort();
    expect(control.stop.aborted).toBe(true);
    await writeControlRequest(dir, 'pause', lock.info, 'web page');
    await sleep(150);
    expect(events).toEqual([]);
    signals.kill.abort();
    expect(control.kill.aborted).toBe(true);
    await control.dispose();
  });
});
