/**
 * The run lock with the real Claude Code: a second run changes nothing before
 * it holds the lock, a lock whose pid now belongs to another program is
 * stale, `--force` takes any lock with a warning; and a worktree run leaves
 * the main checkout as it was.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../support/anthropic-server.js';
import { createClaudeEnv } from '../support/claude-env.js';
import { createGitFixture } from '../support/git-fixture.js';
import { createLoopProject, featSubjects, type LoopProject, prdJson } from '../support/loop-project.js';
import { scriptedTurns } from '../support/model-script.js';
import { processesIn } from '../support/processes.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement, storyIdOf } from '../support/story-script.js';

const PRD = '.ralph/prds/demo/prd.json';
const greet = () => implement('US-001', 'Add greeting', 'greet.txt', 'hello\n');

let project: LoopProject | undefined;
const sleepers: number[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  for (const pid of sleepers.splice(0)) process.kill(pid, 'SIGKILL');
  if (project) for (const p of processesIn(project.repo.dir)) process.kill(p.pid, 'SIGKILL');
  await project?.cleanup();
  project = undefined;
});

/** A live process that is not ralph, holding a pid a stale lock might name. */
function unrelatedProcess(): number {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  if (child.pid === undefined) throw new Error('no pid');
  sleepers.push(child.pid);
  return child.pid;
}

async function writeLock(p: LoopProject, info: Record<string, unknown>): Promise<void> {
  await mkdir(join(p.repo.dir, '.ralph/runs/demo'), { recursive: true });
  await writeFile(join(p.repo.dir, '.ralph/runs/demo/lock'), `${JSON.stringify(info)}\n`);
}

describe('the run lock', () => {
  it('refuses a second run before it archives, switches branches or writes anything', async () => {
    const slow = greet().map((t, i) => (i === 0 ? { ...t, delayMs: 15_000 } : t));
    project = await createLoopProject(
      { [PRD]: prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
      {
        'US-001': [slow],
      },
    );
    const p = project;
    const first = p.run(['demo', '--headless', '--no-worktree']);
    const deadline = Date.now() + 60_000;
    while (!p.server.modelCalls().some((r) => storyIdOf(r) === 'US-001') && Date.now() < deadline)
      await sleep(50);
    const lastBranch = await p.read('.ralph/runs/demo/last-branch');

    const second = await p.run(['demo', '--headless', '--no-worktree', '--branch', 'other']);
    expect(second.exitCode).toBe(5);
    expect(second.stderr).toMatch(/Another ralph run is active/);
    expect(await p.repo.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(await p.repo.git('branch', '--list', 'other')).toBe('');
    expect(existsSync(join(p.repo.dir, '.ralph/archive'))).toBe(false);
    expect(await p.read('.ralph/runs/demo/last-branch')).toBe(lastBranch);

    const done = await first;
    expect(done.exitCode).toBe(0);
    expect(await p.repo.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(await featSubjects(p.repo)).toEqual(['feat: US-001 - Add greeting']);
  });

  it.each([
    ['a start time that is not its own', { processStart: 'another-boot:12345' }],
    ['no start time (an older lock) and a command line that is not ralph', {}],
  ])('takes over a lock whose pid now belongs to another program: %s', async (_, extra) => {
    project = await createLoopProject(
      { [PRD]: prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
      {
        'US-001': [greet()],
      },
    );
    const pid = unrelatedProcess();
    await writeLock(project, {
      pid,
      host: hostname(),
      startedAt: '2024-01-01T00:00:00.000Z',
      command: 'ralph run demo',
      ...extra,
    });
    const result = await project.run(['demo', '--headless', '--no-worktree']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`took over a stale lock from pid ${pid}`);
    expect(result.stdout).toContain('now belongs to another program');
  });

  it('takes a lock it cannot judge only with --force, and says so', async () => {
    project = await createLoopProject(
      { [PRD]: prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
      {
        'US-001': [greet()],
      },
    );
    const lock = {
      pid: 4242,
      host: 'build-box-7',
      startedAt: '2024-01-01T00:00:00.000Z',
      command: 'ralph run demo',
    };
    await writeLock(project, lock);
    const refused = await project.run(['demo', '--headless', '--no-worktree']);
    expect(refused.exitCode).toBe(5);
    expect(refused.stderr).toMatch(/run again with --force/);

    const forced = await project.run(['demo', '--headless', '--no-worktree', '--force']);
    expect(forced.stderr).toBe('');
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toMatch(
      /--force: took the lock of pid 4242 on build-box-7 .*if that run is still going, both runs now change the same files/,
    );
    expect(await featSubjects(project.repo)).toEqual(['feat: US-001 - Add greeting']);
  });
});

describe('ralph goal --force', () => {
  it('takes a lock from another host with a warning', async () => {
    const server = await startAnthropicServer(
      scriptedTurns([
        {
          text: `Nothing to change.\n\n\`\`\`json\n${JSON.stringify({ status: 'goal-complete', summary: 'Checked', goalCompleteSummary: 'Done.' })}\n\`\`\``,
        },
      ]),
    );
    const claude = await createClaudeEnv(server.url, { maxRetries: 0 });
    const repo = await createGitFixture({ files: { 'README.md': '# demo\n' } });
    cleanups.push(server.close, claude.cleanup, repo.cleanup);
    await mkdir(join(repo.dir, '.ralph/runs/check'), { recursive: true });
    await writeFile(
      join(repo.dir, '.ralph/runs/check/lock'),
      JSON.stringify({
        pid: 4242,
        host: 'build-box-7',
        startedAt: '2024-01-01T00:00:00.000Z',
        command: 'ralph goal check',
      }),
    );
    const goal = (...extra: string[]) =>
      runRalph(['goal', 'Check the README.', '--name', 'check', '--headless', ...extra], {
        cwd: repo.dir,
        env: { ...claude.env, RALPH_AGENT_PATH: claude.binaryPath },
      });
    const refused = await goal();
    expect(refused.exitCode).toBe(5);
    expect(refused.stderr).toMatch(/run again with --force/);
    const forced = await goal('--force');
    expect(forced.stderr).toBe('');
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toMatch(/warning: --force: took the lock of pid 4242 on build-box-7/);
  });
});

describe('worktree mode', () => {
  it('leaves the main checkout clean: no untracked .ralph/.gitignore', async () => {
    project = await createLoopProject(
      { [PRD]: prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
      {
        'US-001': [greet()],
      },
    );
    const result = await project.run(['demo', '--headless']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await project.repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});
