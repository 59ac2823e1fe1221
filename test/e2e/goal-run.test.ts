/**
 * Goal runs as first-class runs: the built `ralph goal` with the real Claude
 * Code against a scripted model, in the run's own worktree on
 * `ralph/<name>` by default or in place with `--no-worktree`, seen by
 * `ralph status`, `list`, `report` and `logs`, finished with a push and a
 * pull request like a PRD run.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { readEvents } from '../../src/state/event-log.js';
import { createFakeGh, FAKE_PR_URL, type FakeGh } from '../support/fake-gh.js';
import {
  commitFile,
  createGoalProject,
  type GoalProject,
  result,
  twoFilePlan,
} from '../support/goal-project.js';
import { prdJson } from '../support/loop-project.js';
import { withFailures } from '../support/model-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const GOAL = 'Write two step files\n\nFirst greet.txt, then bye.txt.';
const NAME = 'write-two-step-files';
const IGNORE = { '.ralph/.gitignore': 'runs/\nworktrees/\n' };

let project: GoalProject | undefined;
let gh: FakeGh | undefined;
const temps: string[] = [];
afterEach(async () => {
  await project?.cleanup();
  await gh?.cleanup();
  for (const dir of temps.splice(0)) await removeTempDir(dir);
  project = undefined;
  gh = undefined;
});

interface StatusJson {
  kind: string;
  state: string;
  mode: string | null;
  iteration: number | null;
  steps: { id: string; state: string }[];
}

describe('a goal run', () => {
  // Three iterations and a dozen ralph commands: slow on a loaded machine.
  it('works in its own worktree on ralph/<name>, seen by status, list, report and logs; PR, merge and clean', async () => {
    const scratch = await makeTempDir('goal-run');
    temps.push(scratch);
    const release = join(scratch, 'release');
    project = await createGoalProject(
      twoFilePlan([
        {
          tool: 'Bash',
          input: {
            command: `while [ ! -f '${release}' ]; do sleep 0.1; done`,
            description: 'wait for the test',
          },
        },
      ]),
      IGNORE,
    );
    const p = project;
    const origin = join(scratch, 'origin.git');
    await p.repo.git('init', '-q', '--bare', origin);
    await p.repo.git('remote', 'add', 'origin', origin);
    gh = await createFakeGh();
    const mainHead = await p.repo.head();

    const running = p.run([GOAL, '--headless', '-c', 'both files committed', '--push', '--pr'], {
      env: { PATH: gh.env(p.claude.env).PATH },
    });

    // While iteration 3 runs: step-0 done, step-1 in progress, the mode shown.
    let live: StatusJson | undefined;
    for (let i = 0; i < 1200 && !(live?.state === 'running' && live.iteration === 3); i++) {
      const status = await p.ralph(['status', NAME, '--json']);
      if (status.exitCode === 0) live = JSON.parse(status.stdout) as StatusJson;
      else await sleep(100);
    }
    expect(live).toMatchObject({ kind: 'goal', state: 'running', mode: 'executing', iteration: 3 });
    expect(live?.steps.map((s) => [s.id, s.state])).toEqual([
      ['step-0', 'done'],
      ['step-1', 'in-progress'],
    ]);
    const text = (await p.ralph(['status', NAME])).stdout;
    expect(text).toContain(
      `${NAME}: Write two step files (goal run, worktree .ralph/worktrees/${NAME} on ralph/${NAME})`,
    );
    expect(text).toContain('state: running · mode: executing (iteration 3)');
    expect(text).toContain('  ✓ step-0  Create greet.txt  (1 iteration)');
    expect(text).toContain('  ● step-1  Create bye.txt');
    expect((await p.ralph(['list'])).stdout).toMatch(
      new RegExp(`goal runs:\\n  ${NAME} +1/2 steps +running \\(executing\\) +Write two step files`),
    );
    await writeFile(release, '');

    const run = await running;
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`starting goal ${NAME}`);
    expect(run.stdout).toMatch(/goal complete in iteration 3/);
    expect(run.stdout).toContain(FAKE_PR_URL);

    // The work is on ralph/<name>, in the run's worktree.
    const worktree = join(p.repo.dir, '.ralph', 'worktrees', NAME);
    const onBranch = (await p.repo.git('log', '--format=%s', `main..ralph/${NAME}`)).split('\n');
    expect(onBranch.filter((s) => s.startsWith('feat:')).reverse()).toEqual(['feat: greet', 'feat: bye']);
    expect(await readFile(join(worktree, 'bye.txt'), 'utf8')).toBe('bye\n');
    // The main checkout is untouched: same commit and branch, clean, no goal files.
    expect(await p.repo.head()).toBe(mainHead);
    expect(await p.repo.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(await p.repo.git('status', '--porcelain')).toBe('');
    expect(existsSync(join(p.repo.dir, 'greet.txt'))).toBe(false);

    const done = (await p.ralph(['status', NAME])).stdout;
    expect(done).toContain('state: complete');
    expect(done).toContain('  ✓ step-1  Create bye.txt  (1 iteration)');
    expect(done).toContain('2/2 steps done');
    expect(done).toContain('goal complete: greet.txt and bye.txt exist.');
    expect((await p.ralph(['list'])).stdout).toMatch(
      new RegExp(`  ${NAME} +2/2 steps +complete +Write two step files`),
    );
    const listed = JSON.parse((await p.ralph(['list', '--json'])).stdout) as { kind: string; name: string }[];
    expect(listed).toContainEqual(expect.objectContaining({ kind: 'goal', name: NAME, done: 2, total: 2 }));

    const report = (await p.ralph(['report', NAME])).stdout.split('\n');
    expect(report[1]).toMatch(/^ {3}1 {2}planning {3}- +continue /);
    expect(report[2]).toMatch(/^ {3}2 {2}executing {2}step-0 +continue .*Wrote greet\.txt$/);
    expect(report[3]).toMatch(/^ {3}3 {2}executing {2}step-1 +goal-complete .*Wrote bye\.txt$/);
    expect(report[4]).toMatch(/^steps: 2\/2 done · total: 3 iterations, /);
    expect((await p.ralph(['logs', NAME])).stdout).toMatch(/goal complete in iteration 3/);
    expect((await p.ralph(['logs', NAME, '--iteration', '2', '--raw'])).stdout).toContain('"type":"result"');

    // Pushed, and the pull request lists the steps.
    expect(await p.repo.git('--git-dir', origin, 'rev-parse', `refs/heads/ralph/${NAME}`)).toBe(
      await p.repo.git('rev-parse', `ralph/${NAME}`),
    );
    const [call] = await gh.calls();
    expect(call?.args.slice(0, 4)).toEqual([
      'pr',
      'create',
      '--title',
      `feat(${NAME}): Write two step files`,
    ]);
    expect(call?.args.slice(6)).toEqual(['--head', `ralph/${NAME}`, '--base', 'main']);
    expect(call?.args[5]).toMatch(/^Goal steps completed by ralph for \*\*Write two step files\*\*/);
    expect(call?.args[5]).toMatch(/\| step-0 \| Create greet\.txt \| 1 \| \$[\d.]+ \|/);
    expect(call?.args[5]).toMatch(/2 steps, 2 iterations, \$[\d.]+\./);
    expect(call?.cwd).toBe(worktree);

    // merge and clean finish a goal run as they finish a PRD's.
    expect((await p.ralph(['merge', NAME])).exitCode).toBe(0);
    expect(await readFile(join(p.repo.dir, 'bye.txt'), 'utf8')).toBe('bye\n');
    expect((await p.ralph(['clean', NAME, '--delete-branch'])).exitCode).toBe(0);
    expect(existsSync(worktree)).toBe(false);
  }, 240_000);

  it('runs in place with --no-worktree, stashing the user’s changes with --allow-dirty', async () => {
    const complete = [
      [
        commitFile('greet.txt', 'hello', 'feat: greet'),
        result({ status: 'goal-complete', summary: 'Wrote it', goalCompleteSummary: 'greet.txt exists.' }),
      ],
    ];
    project = await createGoalProject({ 1: complete }, IGNORE);
    await project.repo.write('README.md', '# my edit\n');
    const refused = await project.run(['Write greet.txt', '--no-worktree', '--headless']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/uncommitted changes.*--allow-dirty/);

    const run = await project.run(['Write greet.txt', '--no-worktree', '--allow-dirty', '--headless']);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('starting goal write-greet.txt');
    expect((await project.repo.subjects())[0]).toBe('feat: greet');
    expect(await project.repo.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(await project.repo.git('stash', 'list')).toMatch(/ralph: uncommitted changes set aside/);
    expect(await project.repo.git('status', '--porcelain')).toBe('');
    expect(existsSync(join(project.repo.dir, '.ralph', 'worktrees'))).toBe(false);
  });

  it('refuses a run name that belongs to a PRD, and moves a derived one past it', async () => {
    project = await createGoalProject(
      { 1: [[result({ status: 'goal-complete', summary: 'ok', goalCompleteSummary: 'Shipped.' })]] },
      { ...IGNORE, '.ralph/prds/ship-it/prd.json': prdJson([{ id: 'US-001', title: 'Ship' }]) },
    );
    const refused = await project.run(['Ship it', '--name', 'ship-it', '--headless']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('ship-it is the name of a PRD here');
    const run = await project.run(['Ship it', '--headless', '--no-worktree']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('starting goal ship-it-2');
    // The PRD keeps its own name, status and run folder.
    expect((await project.ralph(['status', 'ship-it'])).stdout).toContain('US-001');
    expect((await project.ralph(['status', 'ship-it-2'])).stdout).toContain('state: complete');
  });

  it('waits out a rate limit without counting the iteration, then completes', async () => {
    project = await createGoalProject(
      { 1: [[result({ status: 'goal-complete', summary: 'ok', goalCompleteSummary: 'Done.' })]] },
      IGNORE,
      {
        wrap: (script) =>
          withFailures(
            [{ error: { status: 429, type: 'rate_limit_error', message: 'Rate limited' } }],
            script,
          ),
      },
    );
    const run = await project.run(['Finish up', '--no-worktree', '--headless'], {
      env: { RALPH_RATE_LIMIT_BACKOFF_MS: '300' },
    });
    expect(run.exitCode).toBe(0);
    const events = (await readEvents(join(project.repo.dir, '.ralph/runs/finish-up/events.jsonl'))) as {
      type: string;
    }[];
    expect(events.filter((e) => e.type === 'rate-limited')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'attempt-failed')).toHaveLength(0);
    expect((await project.progress('finish-up')).iterations).toMatchObject([{ iteration: 1 }]);
  });
});
