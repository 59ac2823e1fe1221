import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import type { RunEvent, RunEventRecord } from '../events/run-event.js';
import { desktopSink } from './desktop.js';

const record = (event: RunEvent): RunEventRecord => ({
  ...event,
  at: '2026-01-02T03:04:05.000Z',
  run: 'demo',
});
const finished = (exitCode: number, reason: 'all-done' | 'interrupted' | 'max-cost'): RunEventRecord =>
  record({
    type: 'run-finished',
    exitCode,
    reason,
    message: `ended: ${reason}`,
    passed: 1,
    total: 2,
    parked: [],
    costUsd: 0,
    iterations: 2,
  });

describe('desktopSink', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('desktop-sink');
    // Sleeps a little before recording, so `settled` has something to wait for.
    await writeFile(
      join(dir, 'notify-send'),
      `#!/bin/sh\nsleep 0.3\nprintf '%s\\n' "$@" >> "${dir}/calls.txt"\n`,
    );
    await chmod(join(dir, 'notify-send'), 0o755);
  });
  afterEach(async () => {
    await removeTempDir(dir);
  });

  it('rings and notifies at the end of a run, asking the wishes each time; settled waits for notify-send', async () => {
    const bells: string[] = [];
    let wishes = { bell: true, desktop: true };
    const sink = desktopSink({ wishes: () => wishes, writeBell: (t) => bells.push(t), searchPath: dir });
    sink.follow(record({ type: 'stop-requested', how: 'graceful', from: 'TUI' }));
    sink.follow(finished(130, 'interrupted'));
    expect(bells).toEqual([]);
    sink.follow(finished(3, 'max-cost'));
    expect(bells).toEqual(['\x07']);
    await sink.settled();
    expect((await readFile(join(dir, 'calls.txt'), 'utf8')).split('\n').slice(0, 4)).toEqual([
      '--app-name=ralph',
      '--urgency=critical',
      'ralph: demo needs you',
      'ended: max-cost',
    ]);
    // Turned off in the settings meanwhile: the next end rings and notifies nothing.
    wishes = { bell: false, desktop: false };
    sink.follow(finished(0, 'all-done'));
    await sink.settled();
    expect(bells).toEqual(['\x07']);
    expect((await readFile(join(dir, 'calls.txt'), 'utf8')).match(/--app-name/g)).toHaveLength(1);
  });

  it('without a terminal to ring (no writeBell) only the desktop is told', async () => {
    const sink = desktopSink({ wishes: () => ({ bell: true, desktop: true }), searchPath: dir });
    sink.follow(finished(0, 'all-done'));
    await sink.settled();
    expect(await readFile(join(dir, 'calls.txt'), 'utf8')).toContain('ralph: demo complete');
  });
});
