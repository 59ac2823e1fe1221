/** Notifications: the bell, and notify-send run with an argument array (a stand-in on PATH records them). */

import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNotifier, findOnPath, notificationFor } from '../../src/notify/desktop.js';
import type { SessionEvent } from '../../src/ui/tui/session.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const finished = (
  exitCode: number,
  reason: 'all-done' | 'blocked' | 'interrupted' | 'max-cost',
  message: string,
): SessionEvent => ({
  type: 'run-finished',
  exitCode,
  reason,
  message,
  passed: 1,
  total: 2,
  parked: [],
  costUsd: 0,
  iterations: 2,
});

describe('notificationFor', () => {
  it('a completed run is good news; a stop with work left needs the user; a user stop is neither', () => {
    expect(notificationFor('main', finished(0, 'all-done', 'all stories passed'))).toEqual({
      title: 'ralph: main complete',
      body: 'all stories passed',
      urgency: 'normal',
    });
    expect(
      notificationFor('main', finished(3, 'max-cost', 'stopped before exceeding the $5 budget')),
    ).toMatchObject({
      title: 'ralph: main needs you',
      urgency: 'critical',
    });
    expect(notificationFor('main', finished(130, 'interrupted', 'stopped'))).toBeNull();
    expect(notificationFor('main', { type: 'stop-requested', how: 'graceful' })).toBeNull();
  });
});

describe('createNotifier', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('notify');
    // Records its arguments one per line, as notify-send would receive them.
    await writeFile(join(dir, 'notify-send'), `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/args.txt"\n`);
    await chmod(join(dir, 'notify-send'), 0o755);
  });
  afterEach(async () => {
    await removeTempDir(dir);
  });

  it('rings the bell by default and spawns nothing when desktop notifications are off', () => {
    const written: string[] = [];
    let spawned = 0;
    const notify = createNotifier({
      bell: true,
      desktop: false,
      writeBell: (t) => written.push(t),
      searchPath: dir,
      onSpawn: () => spawned++,
    });
    notify({ title: 't', body: 'b', urgency: 'normal' });
    expect(written).toEqual(['\x07']);
    expect(spawned).toBe(0);
  });

  it('runs notify-send with the title and body as plain arguments, never through a shell', async () => {
    const written: string[] = [];
    const exited = new Promise<number | null>((resolve) => {
      const notify = createNotifier({
        bell: false,
        desktop: true,
        writeBell: (t) => written.push(t),
        searchPath: dir,
        onSpawn: (child) => child.on('exit', resolve),
      });
      notify({ title: 'ralph: main needs you', body: `parked; $(touch ${dir}/pwned)`, urgency: 'critical' });
    });
    expect(await exited).toBe(0);
    const args = (await readFile(join(dir, 'args.txt'), 'utf8')).trimEnd().split('\n');
    expect(args).toEqual([
      '--app-name=ralph',
      '--urgency=critical',
      'ralph: main needs you',
      `parked; $(touch ${dir}/pwned)`,
    ]);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
    expect(written).toEqual([]);
  });

  it('gives notify-send the control characters of a title or body as symbols', async () => {
    const exited = new Promise<number | null>((resolve) => {
      const notify = createNotifier({
        bell: false,
        desktop: true,
        writeBell: () => {},
        searchPath: dir,
        onSpawn: (child) => child.on('exit', resolve),
      });
      notify({
        title: 'ralph: \u001b]0;pwned\u0007 needs you',
        body: 'needs a human: \u001b]52;c;aGk=\u0007 and \u001b[2J',
        urgency: 'critical',
      });
    });
    expect(await exited).toBe(0);
    const args = (await readFile(join(dir, 'args.txt'), 'utf8')).trimEnd().split('\n');
    expect(args.slice(2)).toEqual(['ralph: ␛]0;pwned␇ needs you', 'needs a human: ␛]52;c;aGk=␇ and ␛[2J']);
  });

  it('does nothing desktop-side when notify-send is not installed', () => {
    expect(findOnPath('notify-send', join(dir, 'empty'))).toBeNull();
    let spawned = 0;
    const notify = createNotifier({
      bell: false,
      desktop: true,
      writeBell: () => {},
      searchPath: join(dir, 'empty'),
      onSpawn: () => spawned++,
    });
    notify({ title: 't', body: 'b', urgency: 'normal' });
    expect(spawned).toBe(0);
  });
});
