/**
 * An agent that cannot be started or cannot log in, found before the first
 * iteration, stops every command that runs it with exit 4 (as when an
 * attempt finds it), one sentence saying which agent, what failed and how to
 * fix it, and the `agent-unusable` event where the run's sinks are open;
 * nothing is written. An unknown agent name stays a usage error (exit 2).
 * The agents' own checks run against the real CLIs: `--version` of the
 * pinned binaries, Codex's home folder, Gemini CLI's auth method.
 */
import { existsSync } from 'node:fs';
import { chmod, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_BINARY } from '../support/claude-env.js';
import { CODEX_BINARY } from '../support/codex-env.js';
import { GEMINI_BINARY } from '../support/gemini-env.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { prdJson, prdMd } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const TWO = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
];

type Event = { type: string; [k: string]: unknown };

async function project(files: Record<string, string> = {}): Promise<GitFixture> {
  const repo = await createGitFixture({
    files: { 'README.md': '# demo\n', '.ralph/prds/demo/prd.json': prdJson(TWO), ...files },
  });
  cleanups.push(repo.cleanup);
  return repo;
}

async function scratch(label: string): Promise<string> {
  const dir = await makeTempDir(label);
  cleanups.push(() => removeTempDir(dir));
  return dir;
}

/** A private HOME, the machine's PATH, and none of the agent variables of the shell running the tests. */
async function cleanEnv(extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: await scratch('home'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    IS_SANDBOX: '1',
    ...extra,
  };
}

/** `ralph <args>` in the project, in a clean environment. */
async function ralphIn(repo: GitFixture, args: string[], extra: NodeJS.ProcessEnv = {}) {
  return runRalph(args, { cwd: repo.dir, env: await cleanEnv(extra) });
}

/** A stand-in `claude` binary: a shell script with this body and mode. */
async function fakeClaude(body: string, mode: number): Promise<string> {
  const bin = join(await scratch('bin'), 'claude');
  await writeFile(bin, `#!/bin/sh\n${body}\n`);
  await chmod(bin, mode);
  return bin;
}

async function events(repo: GitFixture, run: string): Promise<Event[]> {
  const text = await readFile(join(repo.dir, '.ralph', 'runs', run, 'events.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Event);
}

/** Nothing changed: no branch, no worktree, no commit, no run state. */
async function expectNothingWritten(repo: GitFixture, run: string): Promise<void> {
  expect(await repo.git('branch', '--list', `ralph/${run}`)).toBe('');
  expect(await repo.subjects()).toEqual(['chore: initial commit']);
  expect(existsSync(join(repo.dir, '.ralph', 'worktrees', run))).toBe(false);
  expect(existsSync(join(repo.dir, '.ralph', 'runs', run, 'state.json'))).toBe(false);
}

describe('an agent that cannot be used, found at start', () => {
  it('a missing binary: exit 4 with its path, the system error and the fix; the event in events.jsonl', async () => {
    const repo = await project();
    const result = await ralphIn(repo, ['run', 'demo', '--headless', '--agent-path', '/nowhere/claude']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(
      'ralph: Claude Code not found: /nowhere/claude: no such file or directory (ENOENT)',
    );
    expect(result.stderr).toContain('install it, or point --agent-path');
    expect(result.stderr).toContain('npm i -g @anthropic-ai/claude-code');
    expect(result.stdout).toMatch(/✗ claude: Claude Code not found: \/nowhere\/claude.*; install it/);
    const all = await events(repo, 'demo');
    expect(all.map((e) => e.type)).toEqual(['agent-unusable']);
    expect(all[0]).toMatchObject({
      agent: 'claude',
      kind: 'not-startable',
      message: expect.stringContaining('/nowhere/claude'),
      fix: expect.stringContaining('--agent-path'),
    });
    await expectNothingWritten(repo, 'demo');
  });

  it('a binary that is not executable: exit 4 with the permission error, also in --json', async () => {
    const repo = await project();
    const bin = await fakeClaude('echo 1.0.0', 0o644);
    const result = await ralphIn(repo, ['run', 'demo', '--json', '--agent-path', bin]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`Claude Code cannot be executed: ${bin}: permission denied (EACCES)`);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Event);
    expect(lines.find((e) => e.type === 'agent-unusable')).toMatchObject({ kind: 'not-startable' });
    await expectNothingWritten(repo, 'demo');
  });

  it('a binary that does not answer --version: exit 4 with what it said', async () => {
    const repo = await project();
    const bin = await fakeClaude('echo "cannot load runtime" >&2; exit 1', 0o755);
    const result = await ralphIn(repo, ['run', 'demo', '--headless', '--agent-path', bin]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('cannot load runtime');
    expect((await events(repo, 'demo'))[0]).toMatchObject({ type: 'agent-unusable', kind: 'not-startable' });
  });

  it.runIf(process.getuid?.() === 0)(
    'Claude Code as root without IS_SANDBOX: exit 4, and how to fix it',
    async () => {
      const repo = await project();
      const result = await ralphIn(repo, ['run', 'demo', '--headless', '--agent-path', CLAUDE_BINARY], {
        IS_SANDBOX: '',
      });
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toContain('Claude Code refuses --dangerously-skip-permissions as root');
      expect(result.stderr).toContain('set IS_SANDBOX=1');
      expect((await events(repo, 'demo'))[0]).toMatchObject({
        type: 'agent-unusable',
        kind: 'not-startable',
        fix: expect.stringContaining('IS_SANDBOX=1'),
      });
      await expectNothingWritten(repo, 'demo');
    },
  );

  it('Gemini CLI without an auth method: exit 4 as an auth failure, with how to log in', async () => {
    const repo = await project();
    const result = await ralphIn(repo, [
      'run',
      'demo',
      '--headless',
      '--agent',
      'gemini',
      '--agent-path',
      GEMINI_BINARY,
    ]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('Gemini CLI has no auth method for headless runs');
    expect(result.stderr).toContain('GEMINI_API_KEY');
    expect((await events(repo, 'demo'))[0]).toMatchObject({
      type: 'agent-unusable',
      agent: 'gemini',
      kind: 'auth',
    });
    await expectNothingWritten(repo, 'demo');
  });

  it('Codex with CODEX_HOME not a directory: exit 4, naming it', async () => {
    const repo = await project();
    const home = join(await scratch('codex'), 'missing');
    const result = await ralphIn(
      repo,
      ['run', 'demo', '--headless', '--agent', 'codex', '--agent-path', CODEX_BINARY],
      { CODEX_HOME: home },
    );
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`Codex refuses to start: CODEX_HOME is set to ${home}`);
    expect(result.stderr).toContain('create it, or unset CODEX_HOME');
    await expectNothingWritten(repo, 'demo');
  });

  it('an unknown agent name stays a usage error (exit 2), as a flag or in RALPH_AGENT', async () => {
    const repo = await project();
    const flag = await ralphIn(repo, ['run', 'demo', '--headless', '--agent', 'nosuch']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toMatch(/'nosuch' is invalid/);
    const variable = await ralphIn(repo, ['run', 'demo', '--headless'], { RALPH_AGENT: 'nosuch' });
    expect(variable.exitCode).toBe(2);
    expect(variable.stderr).toMatch(/unknown agent "nosuch"/);
    expect(existsSync(join(repo.dir, '.ralph', 'runs', 'demo', 'events.jsonl'))).toBe(false);
  });

  it('ralph goal: exit 4 and the event in the goal run', async () => {
    const repo = await project();
    const result = await ralphIn(repo, [
      'goal',
      'write a haiku',
      '--name',
      'haiku',
      '--headless',
      '--agent-path',
      '/nowhere/claude',
    ]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('Claude Code not found: /nowhere/claude');
    expect((await events(repo, 'haiku'))[0]).toMatchObject({ type: 'agent-unusable', agent: 'claude' });
    await expectNothingWritten(repo, 'haiku');
  });

  it('ralph run --worker: exit 4 before anything is fetched or pushed', async () => {
    const repo = await project();
    const origin = join(await scratch('origin'), 'origin.git');
    await repo.git('clone', '-q', '--bare', repo.dir, origin);
    await repo.git('remote', 'add', 'origin', origin);
    const result = await ralphIn(repo, [
      'run',
      'demo',
      '--worker',
      '--story',
      'US-001',
      '--agent-path',
      '/nowhere/claude',
    ]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('Claude Code not found: /nowhere/claude');
    expect((await events(repo, 'demo'))[0]).toMatchObject({ type: 'agent-unusable', agent: 'claude' });
    const heads = await repo.git('ls-remote', '--heads', origin);
    expect(heads.split('\n')).toHaveLength(1);
  });

  it('ralph edit: exit 4 and the prd.md untouched', async () => {
    const md = prdMd(TWO);
    const repo = await project({ '.ralph/prds/shop/prd.md': md });
    const result = await ralphIn(repo, [
      'edit',
      'shop',
      '--from',
      'add a story',
      '--agent-path',
      '/nowhere/claude',
    ]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('Claude Code not found: /nowhere/claude');
    expect(await readFile(join(repo.dir, '.ralph/prds/shop/prd.md'), 'utf8')).toBe(md);
    expect(await readdir(join(repo.dir, '.ralph'))).not.toContain('runs');
  });
});
