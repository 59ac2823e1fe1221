/**
 * What the command line tells a newcomer who mistypes, asks for help, runs
 * `init` again or wants `validate` for a script: from the built CLI.
 */
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { prdJson } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';

let repo: GitFixture | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

async function project(files: Record<string, string> = {}): Promise<GitFixture> {
  repo = await createGitFixture({ files: { 'README.md': '# demo\n', ...files } });
  return repo;
}

describe('a mistyped command', () => {
  it.each([
    [['stauts'], 'status'],
    [['rnu', 'demo'], 'run'],
    [['help', 'stauts'], 'status'],
  ])('ralph %j: exit 2, the command meant, nothing written', async (args, meant) => {
    const r = await project();
    const result = await runRalph(args, { cwd: r.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `ralph: unknown command '${args.at(-1) === 'demo' ? args[0] : args.at(-1)}'`,
    );
    expect(result.stderr).toContain(`(Did you mean ${meant}?)`);
    expect(await r.git('status', '--porcelain')).toBe('');
    expect(existsSync(join(r.dir, '.ralph'))).toBe(false);
  });

  it('a subcommand mistyped under its command gets its own suggestion', async () => {
    const r = await project();
    const result = await runRalph(['help', 'ci', 'githbu'], { cwd: r.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("ralph: unknown command 'githbu'");
    expect(result.stderr).toContain('(Did you mean github?)');
  });
});

describe('usage errors point at the help of their command', () => {
  it.each([
    [['status', '--jsno'], 'ralph help status'],
    [['run', '--bogus'], 'ralph help run'],
    [['goal', '--max-iterations', 'lots'], 'ralph help goal'],
    [['ci', 'github', '--bogus'], 'ralph help ci github'],
  ])('ralph %j → `%s`', async (args, help) => {
    const r = await project();
    const result = await runRalph(args, { cwd: r.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^ralph: /);
    expect(result.stderr.trim().split('\n').at(-1)).toBe(`(run \`${help}\` for usage)`);
    // And that help exists, for the same words.
    const shown = await runRalph(help.split(' ').slice(1), { cwd: r.dir });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^Usage: ${help.replace('help ', '')} `, 'm'));
  });
});

describe('help', () => {
  it('ralph help lists run first, then goal', async () => {
    const r = await project();
    const result = await runRalph(['help'], { cwd: r.dir });
    const commands = result.stdout.split('Commands:\n')[1]?.match(/^ {2}[a-z]+/gm) ?? [];
    expect(commands.slice(0, 2).map((c) => c.trim())).toEqual(['run', 'goal']);
  });

  it.each([
    ['run', 'ralph run billing --headless', 'a story parked after its retries'],
    ['goal', 'ralph goal --file SPRINT.yaml', 'needs a human'],
  ])('ralph %s --help ends with examples, then every exit code', async (command, example, workLeft) => {
    const r = await project();
    const result = await runRalph([command, '--help'], { cwd: r.dir });
    expect(result.exitCode).toBe(0);
    const [, after = ''] = result.stdout.split(/^ {2}-h, --help .*$/m);
    const [examples = '', codes = ''] = after.split(/^Exit codes:$/m);
    expect(examples).toMatch(/^Examples:$/m);
    expect(examples).toContain(example);
    const rows = codes.trim().split('\n');
    expect(rows.map((row) => row.trim().split(/\s+/)[0])).toEqual(['0', '1', '2', '3', '4', '5', '130']);
    expect(rows[1]).toContain(workLeft);
    expect(rows[5]).toContain('another live run holds the lock');
    // The exit codes are the last thing said.
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^ {2}130 +interrupted/);
  });
});

describe('ralph init run again', () => {
  it('after the example was removed for a PRD of your own: says it skipped the example and sends you to your PRD', async () => {
    const r = await project();
    const first = await runRalph(['init'], { cwd: r.dir });
    expect(first.stdout).toContain('next: edit .ralph/prds/example/prd.md');
    await rm(join(r.dir, '.ralph/prds/example'), { recursive: true });
    await r.write('.ralph/prds/billing/prd.json', prdJson([{ id: 'US-001', title: 'Add invoices' }]));

    const again = await runRalph(['init'], { cwd: r.dir });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain('skipped  .ralph/prds/example/prd.md (PRDs already exist (billing))');
    expect(again.stdout).toContain('next: `ralph validate billing`, then `ralph run billing`');
    expect(again.stdout).not.toContain('edit .ralph/prds/example/prd.md');
    expect(await readdir(join(r.dir, '.ralph/prds'))).toEqual(['billing']);
  });
});

describe('ralph validate --json', () => {
  it('a valid file: one JSON object on stdout, the counts, exit 0', async () => {
    const r = await project({
      '.ralph/prds/demo/prd.json': prdJson([
        { id: 'US-001', title: 'Add greeting' },
        { id: 'US-002', title: 'Add farewell', dependsOn: ['US-001'] },
      ]),
    });
    const result = await runRalph(['validate', 'demo', '--json'], { cwd: r.dir });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: true,
      file: '.ralph/prds/demo/prd.json',
      format: 'prd-json',
      stories: 2,
      errors: 0,
    });
  });

  it('a broken file: exit 2, each issue with its file, line, column and JSON path, nothing on stderr', async () => {
    const broken = prdJson([{ id: 'US-001', title: 'Add greeting' }]).replace(
      '"priority": 1',
      '"priority": "soon"',
    );
    const r = await project({ '.ralph/prds/demo/prd.json': broken });
    const result = await runRalph(['validate', 'demo', '--json'], { cwd: r.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      errors: number;
      issues: { severity: string; file: string; line?: number; column?: number; path?: string }[];
    };
    expect(report.ok).toBe(false);
    expect(report.errors).toBeGreaterThan(0);
    const line = broken.split('\n').findIndex((l) => l.includes('"soon"')) + 1;
    expect(report.issues).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        file: '.ralph/prds/demo/prd.json',
        line,
        column: expect.any(Number),
        path: 'userStories[0].priority',
      }),
    );
    // The text output says the same.
    const text = await runRalph(['validate', 'demo'], { cwd: r.dir });
    expect(text.stderr).toContain(`.ralph/prds/demo/prd.json:${line}:`);
  });
});
