/**
 * The built `ralph run` in a real terminal over the real Claude Code: what
 * the TUI does goes through the run's one fan-out. `p` is a `stop-requested`
 * event in events.jsonl and at the webhook; a warning of the run (a fallback
 * agent left out) is shown in the TUI's log; the bell and notify-send are the
 * run's notification sink, rung at its end.
 */
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { createLoopProject, prdJson, runEvents } from '../support/loop-project.js';
import { implement } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { KEYS, terminalEnv, terminalTests } from './terminal.js';

vi.setConfig({ testTimeout: 240_000 });

const terminals = terminalTests();

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1200 && !(await check()); i++) await sleep(100);
  expect(await check(), `${what} never happened`).toBe(true);
}

describe('the TUI through the fan-out', () => {
  it('p reaches events.jsonl and the webhook; a warning shows in the log; the end rings and notifies', async () => {
    const dir = await makeTempDir('tui-fan-out');
    terminals.defer(() => removeTempDir(dir));
    const started = join(dir, 'started');
    const release = join(dir, 'release');
    const calls = join(dir, 'notify-send.txt');
    await writeFile(join(dir, 'notify-send'), `#!/bin/sh\nprintf '%s\\n' "$@" >> "${calls}"\n`);
    await chmod(join(dir, 'notify-send'), 0o755);
    const hooks = await startWebhookReceiver();
    terminals.defer(() => hooks.close());

    const project = await createLoopProject(
      {
        '.ralph/prds/demo/prd.json': prdJson([
          { id: 'US-001', title: 'Add greeting' },
          { id: 'US-002', title: 'Add farewell' },
        ]),
        '.ralph/config.yaml': [
          'notifications:\n  bell: true',
          `notify:\n  desktop: true\n  webhooks: ["${hooks.url}/hook"]`,
          'agent:\n  fallback: [amp]\n  env:\n    amp:\n      PATH: /nonexistent',
        ].join('\n'),
      },
      {
        'US-001': [
          [
            {
              tool: 'Bash',
              input: {
                command: `touch '${started}'; while [ ! -f '${release}' ]; do sleep 0.1; done`,
                description: 'wait for the test',
              },
            },
            ...implement('US-001', 'Add greeting', 'greet.txt', 'hello\n'),
          ],
        ],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
      },
    );
    terminals.defer(project.cleanup);
    const t = terminals.start(['run', 'demo', '--no-worktree'], {
      cwd: project.repo.dir,
      env: terminalEnv({
        ...project.claude.env,
        RALPH_AGENT_PATH: project.claude.binaryPath,
        PATH: `${dir}:${process.env.PATH ?? ''}`,
      }),
      columns: 110,
      rows: 32,
    });
    await t.see('press s to start');
    t.type('s');
    await until(() => existsSync(started), 'the agent starting');
    t.type('p');
    await t.see('Pausing after this iteration');
    // The pause is an event of the run: in its record and told to the webhook, as from the page.
    await until(
      async () => (await runEvents(project)).some((e) => e.type === 'stop-requested'),
      'the pause in events.jsonl',
    );
    expect((await runEvents(project)).filter((e) => e.type === 'stop-requested')).toEqual([
      expect.objectContaining({ how: 'graceful', from: 'TUI', run: 'demo' }),
    ]);
    await until(() => hooks.events('stop-requested').length > 0, 'the pause at the webhook');
    expect(hooks.events('stop-requested')[0]).toMatchObject({
      prd: 'demo',
      how: 'graceful',
      from: 'TUI',
      text: 'demo is pausing (asked from the TUI): it stops after this iteration. Resume with: ralph run demo',
    });
    await writeFile(release, '');
    await t.see('Paused — press s to resume', 90_000);
    // A pause the user asked for is no news on the desktop.
    expect(existsSync(calls)).toBe(false);

    // The fallback left out is a warning of the run, shown in the TUI's log.
    t.type('t');
    const log = await t.see('Log — demo');
    expect(log.text).toContain('warning: fallback agent Amp not found (amp); skipped');
    t.type(KEYS.escape);

    const from = t.raw().length;
    t.type('s');
    await t.see('demo complete — every story passed', 90_000);
    await until(() => existsSync(calls), 'notify-send');
    expect((await readFile(calls, 'utf8')).split('\n').slice(0, 3)).toEqual([
      '--app-name=ralph',
      '--urgency=normal',
      'ralph: demo complete',
    ]);
    expect(t.raw().slice(from)).toContain('\x07');
    await until(() => hooks.events('run-finished').length === 2, 'both ends at the webhook');
    t.type('q');
    expect(await t.exited).toBe(0);
  });
});
