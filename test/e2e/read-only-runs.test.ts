/**
 * `.ralph/runs` turning read-only under a running loop (a disk remounted,
 * a quota), for real: ralph runs in a mount namespace of its own where the
 * folder is a bind mount, remounted read-only while the agent works. The
 * run ends saying, in a sentence, what failed first.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopProject, featSubjects, type LoopProject, prdJson } from '../support/loop-project.js';
import { processesIn } from '../support/processes.js';
import { type CliResult, outcomeOf, RALPH_BIN } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

let project: LoopProject | undefined;
const temps: string[] = [];
afterEach(async () => {
  if (project) for (const p of processesIn(project.repo.dir)) process.kill(p.pid, 'SIGKILL');
  await project?.cleanup();
  project = undefined;
  for (const dir of temps.splice(0)) await removeTempDir(dir);
});

/**
 * `ralph run` inside `unshare -m`: `.ralph/runs` is bind-mounted onto itself,
 * and remounted read-only once `flip` exists; `flipped` says it is done.
 */
function runWithRemount(
  p: LoopProject,
  args: string[],
  files: { flip: string; flipped: string },
): Promise<CliResult> {
  const runs = join(p.repo.dir, '.ralph', 'runs');
  const script = [
    'set -e',
    '"$NODE" "$RALPH" "$@" &',
    'pid=$!',
    'while [ ! -f "$FLIP" ]; do sleep 0.05; done',
    // A new mount of the folder over itself, made read-only: files ralph has open stay writable
    // (as on a real remount), everything it opens, creates or removes from now on is refused.
    'mount --bind "$RUNS" "$RUNS"',
    'mount -o remount,bind,ro "$RUNS"',
    'touch "$FLIPPED"',
    'set +e',
    'wait $pid',
  ].join('\n');
  const child = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', ...args], {
    cwd: p.repo.dir,
    env: {
      ...p.claude.env,
      RALPH_AGENT_PATH: p.claude.binaryPath,
      RUNS: runs,
      NODE: process.execPath,
      RALPH: RALPH_BIN,
      FLIP: files.flip,
      FLIPPED: files.flipped,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return outcomeOf(child);
}

describe('.ralph/runs made read-only mid-run', () => {
  it('ends saying what failed first, in a sentence', async () => {
    const scratch = await makeTempDir('ro-runs');
    temps.push(scratch);
    const started = join(scratch, 'started');
    const release = join(scratch, 'release');
    const files = { flip: join(scratch, 'flip'), flipped: join(scratch, 'flipped') };
    project = await createLoopProject(
      { '.ralph/prds/demo/prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
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
      },
    );
    const run = runWithRemount(project, ['run', 'demo', '--headless', '--no-worktree'], files);
    for (let i = 0; i < 1200 && !existsSync(started); i++) await sleep(100);
    expect(existsSync(started)).toBe(true);
    await writeFile(files.flip, '');
    for (let i = 0; i < 200 && !existsSync(files.flipped); i++) await sleep(50);
    expect(existsSync(files.flipped)).toBe(true);
    await writeFile(release, '');
    const result = await run;
    // The first failure, said as one: not the lock it could not remove afterwards, not "unexpected".
    expect(result.stderr).toMatch(
      /^ralph: could not append to the run's event log \S+\/\.ralph\/runs\/demo\/events\.jsonl: read-only file system \(EROFS\); the run stopped there\n$/,
    );
    expect(result.exitCode).toBe(1);
    // The agent's whole process group went with it.
    expect(processesIn(project.repo.dir)).toEqual([]);

    // Writable again (outside that mount namespace it always was): the next run takes over, loses nothing.
    const again = await project.run(['demo', '--headless', '--no-worktree']);
    expect(again.stderr).toBe('');
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(/took over a stale lock/);
    expect(await featSubjects(project.repo)).toEqual(['feat: US-001 - Add greeting']);
    expect(await project.repo.git('status', '--porcelain')).toBe('');
  }, 180_000);
});
