/**
 * The bell and desktop notifications are a sink of the run's events, not a
 * part of the TUI: a headless run (the night shift) with `notify: { desktop:
 * true }` runs notify-send when it ends, and a warning (a fallback agent left
 * out) is an event of the run, on its lines and in events.jsonl.
 */
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLoopProject, type LoopProject, prdJson, runEvents } from '../support/loop-project.js';
import { implement } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

vi.setConfig({ testTimeout: 180_000 });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A notify-send on PATH that appends each call's arguments, one per line, then a separator. */
async function fakeNotifySend(): Promise<{ dir: string; calls: () => Promise<string[][]> }> {
  const dir = await makeTempDir('notify-send');
  cleanups.push(() => removeTempDir(dir));
  const log = join(dir, 'calls.txt');
  await writeFile(join(dir, 'notify-send'), `#!/bin/sh\nprintf '%s\\n' "$@" -- >> "${log}"\n`);
  await chmod(join(dir, 'notify-send'), 0o755);
  return {
    dir,
    calls: async () => {
      if (!existsSync(log)) return [];
      const lines = (await readFile(log, 'utf8')).trimEnd().split('\n');
      const calls: string[][] = [[]];
      for (const line of lines) line === '--' ? calls.push([]) : calls.at(-1)?.push(line);
      return calls.filter((c) => c.length > 0);
    },
  };
}

async function project(config: string): Promise<LoopProject> {
  const p = await createLoopProject(
    {
      '.ralph/prds/demo/prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]),
      '.ralph/config.yaml': config,
    },
    { 'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')] },
  );
  cleanups.push(p.cleanup);
  return p;
}

describe('a headless run notifies as the TUI does', () => {
  it('notify: { desktop: true } runs notify-send at the end; a fallback left out is a warning event', async () => {
    const notifySend = await fakeNotifySend();
    // Amp as the fallback, with a PATH where it cannot be found: left out, with a warning.
    const p = await project(
      'notify:\n  desktop: true\nagent:\n  fallback: [amp]\n  env:\n    amp:\n      PATH: /nonexistent\n',
    );
    const env = { PATH: `${notifySend.dir}:${process.env.PATH ?? ''}` };
    const result = await p.run(['demo', '--headless', '--no-worktree'], { env });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await notifySend.calls()).toEqual([
      ['--app-name=ralph', '--urgency=normal', 'ralph: demo complete', expect.stringContaining('passed')],
    ]);
    // No terminal: no bell in what was written.
    expect(result.stdout).not.toContain('\x07');

    expect(result.stdout).toMatch(/^\[[\d:]+\] warning: fallback agent Amp not found \(amp\); skipped$/m);
    const warnings = (await runEvents(p)).filter((e) => e.type === 'warning');
    expect(warnings).toEqual([
      expect.objectContaining({ message: 'fallback agent Amp not found (amp); skipped' }),
    ]);
    expect(await p.read('.ralph/runs/demo/ralph.log')).toContain('warning: fallback agent Amp not found');

    // Turned off (the `notifications:` default), the same end calls nothing.
    await writeFile(join(p.repo.dir, '.ralph', 'config.yaml'), 'notify:\n  desktop: false\n');
    const again = await p.run(['demo', '--headless', '--no-worktree'], { env });
    expect(again.exitCode).toBe(0);
    expect(await notifySend.calls()).toHaveLength(1);
  });
});
