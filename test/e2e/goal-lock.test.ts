/**
 * A goal run's lock with the real Claude Code: a second `ralph goal` of the
 * same run is refused before it sets anything up (no branch, no worktree,
 * no stash, no write to the run), and a lock whose pid now belongs to
 * another program does not block.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { commitFile, createGoalProject, type GoalProject, result } from '../support/goal-project.js';
import { processesIn } from '../support/processes.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const GOAL = 'Write the greeting';
const NAME = 'write-the-greeting';
const IGNORE = { '.ralph/.gitignore': 'runs/\nworktrees/\n' };
const complete = [
  commitFile('greet.txt', 'hello', 'feat: greet'),
  result({ status: 'goal-complete', summary: 'Wrote greet.txt', goalCompleteSummary: 'greet.txt exists.' }),
];

let project: GoalProject | undefined;
const temps: string[] = [];
const sleepers: number[] = [];
afterEach(async () => {
  for (const pid of sleepers.splice(0)) process.kill(pid, 'SIGKILL');
  if (project) for (const p of processesIn(project.repo.dir)) process.kill(p.pid, 'SIGKILL');
  await project?.cleanup();
  project = undefined;
  for (const dir of temps.splice(0)) await removeTempDir(dir);
});

/** Every path under `dir`, relative to it, sorted. */
async function pathsUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.map((e) => relative(dir, join(dir, e))).sort();
}

/** What a second run must not change: the main checkout's git state, the run's files and the worktrees. */
async function snapshot(p: GoalProject): Promise<Record<string, unknown>> {
  const runFolder = join(p.repo.dir, '.ralph', 'runs', NAME);
  return {
    head: await p.repo.git('rev-parse', 'HEAD'),
    branch: await p.repo.git('rev-parse', '--abbrev-ref', 'HEAD'),
    branches: await p.repo.git('branch', '--list', '--format=%(refname:short)'),
    worktrees: await p.repo.git('worktree', 'list', '--porcelain'),
    stash: await p.repo.git('stash', 'list'),
    status: await p.repo.git('status', '--porcelain', '--untracked-files=all'),
    ralphPaths: await pathsUnder(join(p.repo.dir, '.ralph')),
    progress: await readFile(join(runFolder, 'PROGRESS.yaml'), 'utf8'),
    lock: await readFile(join(runFolder, 'lock'), 'utf8'),
  };
}

describe('the goal run lock', () => {
  it('refuses a second ralph goal before it switches branches, sets up a worktree or writes anything', async () => {
    const scratch = await makeTempDir('goal-lock');
    temps.push(scratch);
    const started = join(scratch, 'started');
    const release = join(scratch, 'release');
    const wait = {
      tool: 'Bash',
      input: {
        command: `touch '${started}'; while [ ! -f '${release}' ]; do sleep 0.1; done`,
        description: 'wait for the test',
      },
    };
    project = await createGoalProject({ 1: [[wait, ...complete]] }, IGNORE);
    const p = project;
    const mainHead = await p.repo.head();
    const first = p.run([GOAL, '--headless']);
    for (let i = 0; i < 1200 && !existsSync(started); i++) await sleep(100);
    expect(existsSync(started)).toBe(true);
    const before = await snapshot(p);

    // The same goal resumes the same run: in place, on a branch of its own, if the lock let it.
    const second = await p.run([GOAL, '--headless', '--no-worktree', '--branch', 'other']);
    expect(second.exitCode).toBe(5);
    expect(second.stderr).toMatch(/Another ralph run is active/);
    expect(second.stderr).toContain(`ralph goal ${NAME}`);
    expect(await snapshot(p)).toEqual(before);

    await writeFile(release, '');
    const done = await first;
    expect(done.stderr).toBe('');
    expect(done.exitCode).toBe(0);
    expect(await p.repo.git('log', '--format=%s', `main..ralph/${NAME}`)).toContain('feat: greet');
    expect(await p.repo.head()).toBe(mainHead);
    expect(await p.repo.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(await p.repo.git('branch', '--list', 'other')).toBe('');
    expect(await p.repo.git('status', '--porcelain')).toBe('');
  }, 180_000);

  it.each([
    ['a start time that is not its own', { processStart: 'another-boot:12345' }],
    ['no start time (an older lock) and a command line that is not ralph', {}],
  ])(
    'takes over a lock whose pid now belongs to another program: %s',
    async (_, extra) => {
      project = await createGoalProject({ 1: [complete] }, IGNORE);
      const sleeper = spawn('sleep', ['300'], { stdio: 'ignore' });
      if (sleeper.pid === undefined) throw new Error('no pid');
      sleepers.push(sleeper.pid);
      await mkdir(join(project.repo.dir, '.ralph', 'runs', NAME), { recursive: true });
      await writeFile(
        join(project.repo.dir, '.ralph', 'runs', NAME, 'lock'),
        `${JSON.stringify({
          pid: sleeper.pid,
          host: hostname(),
          startedAt: '2024-01-01T00:00:00.000Z',
          command: `ralph goal ${NAME}`,
          ...extra,
        })}\n`,
      );
      const run = await project.run([GOAL, '--headless', '--no-worktree']);
      expect(run.stderr).toBe('');
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain(`took over a stale lock from pid ${sleeper.pid}`);
      expect(run.stdout).toContain('now belongs to another program');
      expect(run.stdout).toMatch(/goal complete in iteration 1/);
      expect((await project.repo.subjects())[0]).toBe('feat: greet');
      // The sleeping program is left alone: a stale lock is not a process to stop.
      expect(() => process.kill(sleeper.pid as number, 0)).not.toThrow();
    },
    120_000,
  );
});
