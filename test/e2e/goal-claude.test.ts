/**
 * Goal mode end to end: the built `ralph goal` drives the real Claude Code
 * binary against a scripted model on 127.0.0.1. The script answers by the
 * iteration number in ralph's prompt; every tool call really runs.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitFile,
  createGoalProject,
  type GoalProject,
  ITERATION,
  result,
  twoFilePlan,
} from '../support/goal-project.js';
import { processesIn } from '../support/processes.js';

const GOAL = 'Create greet.txt and bye.txt.';

let project: GoalProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

describe('ralph goal with Claude Code', () => {
  it('plans the goal into steps, executes them over several iterations, and completes it', async () => {
    project = await createGoalProject(twoFilePlan());
    const run = await project.run([
      GOAL,
      '--name',
      'files',
      '--headless',
      '--no-worktree',
      '-c',
      'both files committed',
    ]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/goal complete in iteration 3/);
    expect(run.stdout).toContain('greet.txt and bye.txt exist.');

    const [plan] = project.prompts(1);
    expect(plan).toContain(GOAL);
    expect(plan).toContain('## Iteration 1: planning');
    expect(plan).toContain('- both files committed');
    const [second] = project.prompts(2);
    expect(second).toContain('## Iteration 2: executing');
    expect(second).toContain('**step-0**: Create greet.txt');
    expect(second).toContain('- 1 (planning, continue): Planned two steps');
    expect(project.prompts(3)[0]).toContain('**step-1**: Create bye.txt');

    expect((await project.repo.subjects()).filter((s) => s.startsWith('feat:'))).toEqual([
      'feat: bye',
      'feat: greet',
    ]);
    expect(await project.repo.git('status', '--porcelain')).toBe('');
    const progress = await project.progress('files');
    expect(progress.status).toBe('goal-complete');
    expect(progress['dynamic-steps']).toMatchObject([
      {
        id: 'step-0',
        prompt: 'Create greet.txt',
        status: 'completed',
        'added-in-iteration': 1,
        'completed-in-iteration': 2,
      },
      { id: 'step-1', prompt: 'Create bye.txt', status: 'completed', 'completed-in-iteration': 3 },
    ]);
    expect(progress['ralph-exit']).toMatchObject({
      iteration: 3,
      'final-summary': 'greet.txt and bye.txt exist.',
    });
    expect(progress.stats).toMatchObject({ 'current-iteration': 3 });
  });

  it('refuses goal-complete before min-iterations and tells the next iteration why', async () => {
    const complete = result({
      status: 'goal-complete',
      summary: 'All done',
      goalCompleteSummary: 'Nothing to do.',
    });
    project = await createGoalProject({ 1: [[complete]], 2: [[complete]] });
    const run = await project.run([GOAL, '--name', 'patient', '--min-iterations', '2', '--headless']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/goal-complete was refused/);
    expect(run.stdout).toMatch(/goal complete in iteration 2/);
    const [second] = project.prompts(2);
    expect(second).toContain('goal-complete was refused: this goal needs at least 2 iterations');
    const progress = await project.progress('patient');
    expect((progress.iterations as { outcome: string }[]).map((i) => i.outcome)).toEqual([
      'refused',
      'goal-complete',
    ]);
  });

  it('stops with exit 1 on needs-human, prints why, and asks about it when resumed', async () => {
    project = await createGoalProject({
      1: [
        [
          result({
            status: 'needs-human',
            summary: 'Tried the migration',
            humanNeeded: {
              reason: 'Database credentials not configured',
              details: 'The .env file is missing DATABASE_URL.',
            },
          }),
        ],
      ],
      2: [
        [result({ status: 'goal-complete', summary: 'Migrated', goalCompleteSummary: 'Migrated the db.' })],
      ],
    });
    const stopped = await project.run(['Migrate the database', '--name', 'db', '--headless']);
    expect(stopped.exitCode).toBe(1);
    expect(stopped.stdout).toContain('needs a human: Database credentials not configured');
    expect(stopped.stdout).toContain('The .env file is missing DATABASE_URL.');
    expect((await project.progress('db')).status).toBe('needs-human');

    const resumed = await project.run(['Migrate the database', '--name', 'db', '--headless']);
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toMatch(/resuming goal db/);
    expect(project.prompts(2)[0]).toContain(
      'Iteration 1 stopped the run because it needed a person: Database credentials not configured',
    );
  });

  it('rolls back an iteration with a missing or malformed result and feeds the error to the next prompt', async () => {
    project = await createGoalProject({
      1: [
        [
          { tool: 'Bash', input: { command: 'echo half > stray.txt', description: 'scribble' } },
          { text: 'I did some work but forgot the result block.' },
        ],
      ],
      2: [[{ text: '```json\n{"status": "done", "summary": "x"}\n```' }]],
      3: [[result({ status: 'goal-complete', summary: 'ok', goalCompleteSummary: 'Finished.' })]],
    });
    const run = await project.run([GOAL, '--name', 'retry', '--headless', '--no-worktree']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/iteration 1 failed \(no-result\)/);
    expect(run.stdout).toMatch(/iteration 2 failed \(invalid-result\)/);
    const [second] = project.prompts(2);
    expect(second).toContain('Iteration 1 failed and was rolled back: no ```json result block');
    // Iteration 2 is planning again: nothing was accepted yet.
    expect(second).toContain('## Iteration 2: planning');
    expect(project.prompts(3)[0]).toMatch(/Iteration 2 failed and was rolled back: .*status:/);
    // The failed iteration's stray file was removed with the rollback.
    expect(await project.repo.git('status', '--porcelain')).toBe('');
  });

  it('accepts goal-complete only when the configured checks pass, feeding the failure back', async () => {
    const complete = (summary: string) =>
      result({ status: 'goal-complete', summary, goalCompleteSummary: 'greet.txt exists.' });
    project = await createGoalProject(
      {
        1: [[complete('Claimed done too early')]],
        2: [[commitFile('greet.txt', 'hello', 'feat: greet'), complete('Wrote greet.txt')]],
      },
      { '.ralph/config.yaml': 'checks:\n  - "test -f greet.txt || (echo greet.txt is missing; exit 1)"\n' },
    );
    const run = await project.run([GOAL, '--name', 'checked', '--headless']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/iteration 1 failed \(checks-failed\)/);
    const [second] = project.prompts(2);
    expect(second).toContain('Iteration 1 failed and was rolled back: the check');
    expect(second).toContain('greet.txt is missing');
    expect(run.stdout).toMatch(/goal complete in iteration 2/);
  });

  it('resumes after kill -9 mid-iteration: the interrupted iteration is rolled back and run again', async () => {
    project = await createGoalProject({
      1: [
        [
          result({
            status: 'continue',
            summary: 'Planned',
            pendingSteps: [{ id: null, prompt: 'Create greet.txt' }],
          }),
        ],
      ],
      2: [
        [
          { tool: 'Bash', input: { command: 'echo partial > partial.txt', description: 'start' } },
          { text: 'still thinking', delayMs: 30_000 },
        ],
        [
          commitFile('greet.txt', 'hello', 'feat: greet'),
          result({
            status: 'goal-complete',
            summary: 'Wrote greet.txt',
            completedStepIds: ['step-0'],
            goalCompleteSummary: 'greet.txt exists.',
          }),
        ],
      ],
    });
    const p = project;
    let ralphPid = 0;
    const first = p.run([GOAL, '--name', 'crash', '--headless', '--no-worktree'], {
      onSpawn: (pid) => {
        ralphPid = pid;
      },
    });
    // Wait until iteration 2's agent has run its tool (its second model call), then kill ralph outright.
    const deadline = Date.now() + 60_000;
    while (
      !p.server.modelCalls().some((r) => ITERATION.exec(r.prompt)?.[1] === '2' && r.turn === 1) &&
      Date.now() < deadline
    )
      await sleep(50);
    process.kill(ralphPid, 'SIGKILL');
    expect((await first).signal).toBe('SIGKILL');

    const second = await p.run([GOAL, '--name', 'crash', '--headless', '--no-worktree']);
    expect(second.stderr).toBe('');
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toMatch(/took over a stale lock/);
    expect(second.stdout).toMatch(/interrupted iteration 2 was rolled back/);
    expect(p.prompts(2)).toHaveLength(2);
    expect(await p.repo.git('ls-files', 'partial.txt')).toBe('');
    expect(await p.repo.git('status', '--porcelain')).toBe('');
    expect((await p.repo.subjects()).filter((s) => s.startsWith('feat:'))).toEqual(['feat: greet']);
    expect(processesIn(p.repo.dir)).toEqual([]);
  });
});
