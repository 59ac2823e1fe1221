/** Help, usage errors and a missing git repository: what a newcomer meets first. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { runRalph } from '../support/ralph-cli.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

let dir = '';
let repo: GitFixture | undefined;
afterEach(async () => {
  if (dir) await removeTempDir(dir);
  await repo?.cleanup();
  dir = '';
  repo = undefined;
});

/** A folder outside any git repository (the temp dir is not in one). */
async function notARepo(): Promise<string> {
  dir = await makeTempDir('nogit');
  return dir;
}
// Keeps git from looking for a repository above the temp dir.
const noGitAbove = { ...process.env, GIT_CEILING_DIRECTORIES: '/' };

describe('outside a git repository', () => {
  it('ralph init says what it needs in one sentence, exit 2, and writes nothing', async () => {
    const cwd = await notARepo();
    const result = await runRalph(['init'], { cwd, env: noGitAbove });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^ralph: .*not inside a git repository.*git init/);
    expect(existsSync(join(cwd, '.ralph'))).toBe(false);
    expect(existsSync(join(cwd, '.gitignore'))).toBe(false);
  });

  it("ralph run says so in one sentence, exit 2, without git's own fatal line", async () => {
    const cwd = await notARepo();
    const result = await runRalph(['run', '--headless'], { cwd, env: noGitAbove });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).not.toContain('fatal:');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^ralph: .*not inside a git repository/);
  });

  it('ralph init in a repository without commits works and says a first commit is needed', async () => {
    repo = await createGitFixture();
    await repo.git('update-ref', '-d', 'HEAD');
    const result = await runRalph(['init'], { cwd: repo.dir });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/first commit/);
  });
});

describe('help and usage errors', () => {
  it('ralph help lists the commands; the usage line names [command] once', async () => {
    const cwd = await notARepo();
    const result = await runRalph(['help'], { cwd });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: ralph \[options\] \[command\]$/m);
    expect(result.stdout).not.toContain('[command] [command]');
    for (const command of ['init', 'run', 'goal', 'status', 'report', 'merge', 'clean', 'help']) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect((await runRalph(['--help'], { cwd })).stdout).toBe(result.stdout);
  });

  it('ralph help run shows the run options', async () => {
    const cwd = await notARepo();
    const result = await runRalph(['help', 'run'], { cwd });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: ralph run \[options\] \[target\]$/m);
    expect(result.stdout).toContain('--max-iterations');
    expect(result.stdout).toContain('--dry-run');
  });

  it("every error says ralph:, the parser's own included, exit 2", async () => {
    const cwd = await notARepo();
    for (const args of [['run', '--bogus'], ['bogus'], ['convert', 'x.md'], ['help', 'bogus']]) {
      const result = await runRalph(args, { cwd });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^ralph: /);
      expect(result.stderr, args.join(' ')).not.toMatch(/^error:/m);
    }
  });
});
