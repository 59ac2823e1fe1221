/**
 * A goal run's `needs-human` is a question like a story's ASK: the run stops
 * with exit 1 naming it and the command that answers it (or, with --wait,
 * waits), and the answer is in the next iteration's prompt. Real Claude Code,
 * scripted model.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createGoalProject, type GoalPlan, type GoalProject, result } from '../support/goal-project.js';
import { webhookReceivers } from '../support/webhook-receiver.js';

let project: GoalProject | undefined;
const receivers = webhookReceivers();
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const plan: GoalPlan = {
  1: [
    [
      result({
        status: 'needs-human',
        summary: 'Tried the migration',
        humanNeeded: {
          reason: 'Which database URL should the migration use?',
          details: 'DATABASE_URL is unset.',
        },
      }),
    ],
  ],
  2: [[result({ status: 'goal-complete', summary: 'Migrated', goalCompleteSummary: 'Migrated the db.' })]],
};

describe('a goal run that needs a person', () => {
  it('stops with exit 1 naming the question and its command; answered, the next iteration is told', async () => {
    const hooks = await receivers.start();
    project = await createGoalProject(plan);
    const stopped = await project.run([
      'Migrate the database',
      '--name',
      'db',
      '--headless',
      '--notify',
      hooks.url,
    ]);
    expect(stopped.exitCode).toBe(1);
    expect(stopped.stdout).toContain('? the run asks (Q1): Which database URL should the migration use?');
    expect(stopped.stdout).toContain('answer with: ralph answer db Q1 "<your answer>"');
    expect(hooks.events('question')[0]).toMatchObject({
      prd: 'db',
      goal: 'Migrate the database',
      questionId: 'Q1',
    });
    expect(hooks.events('run-finished')[0]).toMatchObject({ outcome: 'needs-human', exitCode: 1 });
    const status = JSON.parse((await project.ralph(['status', 'db', '--json'])).stdout) as {
      questions: { id: string; answer: unknown; command: string }[];
    };
    expect(status.questions).toEqual([
      expect.objectContaining({ id: 'Q1', answer: null, command: 'ralph answer db Q1 "<your answer>"' }),
    ]);

    expect((await project.ralph(['answer', 'db', 'Q1', 'postgres://localhost/app'])).exitCode).toBe(0);
    const resumed = await project.run(['Migrate the database', '--name', 'db', '--headless']);
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toMatch(/answered Q1: postgres:\/\/localhost\/app/);
    expect(project.prompts(2)[0]).toContain('You asked this; the answer is: postgres://localhost/app');
  }, 180_000);

  it('with --wait, sits until the answer comes and goes on to complete the goal', async () => {
    project = await createGoalProject(plan);
    const running = project.run(['Migrate the database', '--name', 'db', '--headless', '--wait']);
    const events = join(project.repo.dir, '.ralph', 'runs', 'db', 'events.jsonl');
    for (let i = 0; i < 600; i++) {
      const text = await readFile(events, 'utf8').catch(() => '');
      if (text.includes('"type":"waiting"')) break;
      await sleep(200);
    }
    expect((await project.ralph(['answer', 'Q1', 'postgres://localhost/app'])).exitCode).toBe(0);
    const run = await running;
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/waiting \(question\): waiting for an answer: Q1/);
    expect(project.prompts(2)[0]).toContain('You asked this; the answer is: postgres://localhost/app');
  }, 180_000);
});
