/** `--notify` and `notify:` refuse what cannot be posted to before anything runs: exit 2, nothing written. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitFixturePerTest } from '../support/git-fixture.js';
import { prdJson } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';

const repoWith = gitFixturePerTest();
const PRD = { '.ralph/prds/demo/prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]) };

describe('webhook URLs', () => {
  it('a --notify that is not an http(s) URL is a usage error for run and goal; nothing is written', async () => {
    const repo = await repoWith(PRD);
    for (const args of [
      ['run', 'demo', '--notify', 'not a url'],
      ['run', 'demo', '--notify', 'https://ok.example/hook', '--notify', 'ftp://files.example/x'],
      ['goal', 'Do it', '--notify', 'file:///etc/passwd'],
    ]) {
      const result = await runRalph(args, { cwd: repo.dir });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/--notify.*not a webhook URL/);
    }
    expect(existsSync(join(repo.dir, '.ralph', 'runs'))).toBe(false);
    expect(await repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('an invalid --notify is named by scheme and host only: no user, password, path or query', async () => {
    const repo = await repoWith(PRD);
    for (const [given, named] of [
      ['ftp://alice:hunter2@files.example/T0/B1/s3cret?token=abc#frag', 'ftp://files.example/…'],
      ['hooks.example/services/T0/B1/s3cret?token=abc', 'the value given'],
    ] as const) {
      const result = await runRalph(['run', 'demo', '--notify', given], { cwd: repo.dir });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`--notify <url>': ${named} is not a webhook URL`);
      for (const secret of ['alice', 'hunter2', 'T0', 's3cret', 'token', 'abc', 'frag']) {
        expect(result.stderr).not.toContain(secret);
      }
    }
  });

  it('notify: in the config is checked like the rest of it, with its path', async () => {
    const repo = await repoWith({
      ...PRD,
      '.ralph/config.yaml':
        'notify:\n  webhooks: ["mailto:me@example.com"]\n  events: [question, everything]\n',
    });
    const result = await runRalph(['validate', 'demo'], { cwd: repo.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      '.ralph/config.yaml:2:14: notify.webhooks[0]: not a webhook URL: mailto URLs cannot be posted to',
    );
    expect(result.stderr).toMatch(/\.ralph\/config\.yaml:3:22: notify\.events\[1\]: Invalid option/);
  });
});
