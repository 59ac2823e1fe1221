/**
 * Questions and answers end to end: the real Claude Code against the scripted
 * model, whose agent asks with `<ralph>ASK …</ralph>`; a person answers with
 * `ralph answer`; webhooks land on a local HTTP server.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopProject, featSubjects, type LoopProject, prdJson } from '../support/loop-project.js';
import { landedOrder, parallelProject } from '../support/parallel-project.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';
import { webhookReceivers } from '../support/webhook-receiver.js';

const THREE = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Store greetings' },
  { id: 'US-003', title: 'Add shout' },
];

const QUESTION = 'Should greetings be stored in PostgreSQL or in SQLite?';
const ask = (id: string, question: string) => [
  { tool: 'Write', input: { file_path: 'half-done.txt', content: 'not sure yet\n' } },
  { text: `I cannot choose the database myself.\n<ralph>ASK ${id}: ${question}</ralph>` },
];

const plan = {
  'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
  'US-002': [ask('US-002', QUESTION), implement('US-002', 'Store greetings', 'store.txt', 'sqlite\n')],
  'US-003': [implement('US-003', 'Add shout', 'shout.txt', 'HEY\n')],
};

let project: LoopProject | undefined;
const receivers = webhookReceivers();
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

interface StatusJson {
  name: string;
  stories: { id: string; status: string; waiting: boolean; attempts: number; question: null | Q }[];
  questions: Q[];
}
interface Q {
  id: string;
  question: string;
  answer: null | { text: string };
  command?: string;
}

async function status(p: LoopProject): Promise<StatusJson> {
  const result = await runRalph(['status', 'prd.json', '--json'], { cwd: p.repo.dir });
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as StatusJson;
}

describe('a story that asks', () => {
  it('waits while the others land, exit 1, is told by webhook; answered, its next prompt has the answer and it lands', async () => {
    const hooks = await receivers.start();
    project = await createLoopProject({ 'prd.json': prdJson(THREE) }, plan);
    const secret = `${hooks.url}/hooks/T000/B000/secret-token-123?token=abc`;
    const first = await project.run(['prd.json', '--headless', '--no-worktree', '--notify', secret]);

    expect(first.exitCode).toBe(1);
    expect(await featSubjects(project.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-003 - Add shout',
    ]);
    // The asking attempt was rolled back: its half-done file is gone.
    expect(await project.repo.git('status', '--porcelain')).toBe('');
    const waiting = await status(project);
    // A task file outside .ralph/prds runs under a name made from its path.
    const name = waiting.name;
    expect(first.stdout).toContain(QUESTION);
    expect(first.stdout).toContain(`answer with: ralph answer ${name} US-002 "<your answer>"`);
    expect(first.stdout).not.toMatch(/secret-token-123|token=abc/);

    const us2 = waiting.stories.find((s) => s.id === 'US-002');
    expect(us2).toMatchObject({ status: 'todo', waiting: true, attempts: 0 });
    expect(us2?.question).toMatchObject({ id: 'US-002', question: QUESTION, answer: null });
    const text = await runRalph(['status', 'prd.json'], { cwd: project.repo.dir });
    expect(text.stdout).toMatch(/\? US-002 {2}Store greetings/);

    const asked = hooks.events('question');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      event: 'question',
      prd: name,
      story: 'US-002',
      question: QUESTION,
      total: 3,
    });
    expect(String(asked[0]?.text)).toContain(QUESTION);
    const finished = hooks.events('run-finished');
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ prd: name, passed: 2, total: 3, outcome: 'questions', exitCode: 1 });
    expect(typeof finished[0]?.costUsd).toBe('number');
    expect(typeof finished[0]?.at).toBe('string');
    const runDir = join(project.repo.dir, '.ralph', 'runs', name);
    for (const file of ['events.jsonl', 'ralph.log', 'state.json', 'lock']) {
      const text = await readFile(join(runDir, file), 'utf8').catch(() => '');
      expect(text, file).not.toMatch(/secret-token-123|token=abc/);
    }
    for (const hook of hooks.received) {
      expect(hook.method).toBe('POST');
      expect(hook.contentType).toBe('application/json');
      expect(hook.path).toBe('/hooks/T000/B000/secret-token-123?token=abc');
    }

    const answered = await runRalph(['answer', name, 'US-002', 'SQLite, in data/greetings.db'], {
      cwd: project.repo.dir,
    });
    expect(answered.exitCode).toBe(0);
    expect((await status(project)).questions[0]?.answer?.text).toBe('SQLite, in data/greetings.db');

    const second = await project.run(['prd.json', '--headless', '--no-worktree']);
    expect(second.exitCode).toBe(0);
    expect(await featSubjects(project.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-003 - Add shout',
      'feat: US-002 - Store greetings',
    ]);
    // What the model received for US-002's second attempt: the question and its answer.
    const received = project.server
      .modelCalls()
      .filter((call) => call.turn === 0 && call.prompt.includes('## Your story: US-002'));
    expect(received.length).toBeGreaterThanOrEqual(2);
    const last = received.at(-1);
    expect(last?.prompt).toContain(`You asked: ${QUESTION}\nThe answer is: SQLite, in data/greetings.db`);
    expect(JSON.stringify(last?.body)).toContain('SQLite, in data/greetings.db');
    expect(received[0]?.prompt).not.toContain('The answer is');
    // Later stories learn it from the progress file.
    expect(await project.read('progress.md')).toMatch(
      /US-002 asked: .*PostgreSQL or in SQLite\? Answer: SQLite/,
    );
  }, 240_000);
});

/** Waits until the only run of the project has recorded an event of `type` (and `reason`, when given). */
async function eventSeen(p: LoopProject, type: string, reason?: string): Promise<Record<string, unknown>> {
  const runs = join(p.repo.dir, '.ralph', 'runs');
  for (let i = 0; i < 600; i++) {
    const names = await readdir(runs).catch(() => []);
    for (const name of names) {
      const text = await readFile(join(runs, name, 'events.jsonl'), 'utf8').catch(() => '');
      for (const line of text.split('\n').filter(Boolean)) {
        const event = JSON.parse(line) as Record<string, unknown>;
        if (event.type === type && (reason === undefined || event.reason === reason)) return event;
      }
    }
    await sleep(200);
  }
  throw new Error(`no ${type} event`);
}

describe('--wait', () => {
  it('waits for the answer once only waiting stories are left, and goes on with it to exit 0', async () => {
    const hooks = await receivers.start();
    project = await createLoopProject(
      { 'prd.json': prdJson(THREE.slice(0, 2)) },
      {
        'US-001': plan['US-001'],
        'US-002': plan['US-002'],
      },
    );
    const running = project.run(['prd.json', '--headless', '--no-worktree', '--wait', '--notify', hooks.url]);
    const waiting = await eventSeen(project, 'waiting', 'question');
    expect(String(waiting.message)).toContain(QUESTION);
    // US-001 landed before the run sat down to wait.
    expect(await featSubjects(project.repo)).toEqual(['feat: US-001 - Add greeting']);

    const answered = await runRalph(['answer', 'US-002', 'SQLite'], { cwd: project.repo.dir });
    expect(answered.stdout).toMatch(/running loop picks the answer up/);
    const result = await running;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/answered US-002: SQLite/);
    expect(await featSubjects(project.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Store greetings',
    ]);
    expect(project.stories.prompts('US-002').at(-1)).toContain('The answer is: SQLite');
    // A person is told of the question once; the wait for it is no news.
    expect(hooks.events('question')).toHaveLength(1);
    expect(hooks.events('waiting')).toHaveLength(0);
    expect(hooks.events('run-finished')[0]).toMatchObject({ outcome: 'all-done', exitCode: 0, passed: 2 });
  }, 240_000);

  it('with --parallel: the asking story waits while the others land, and lands once answered', async () => {
    project = await parallelProject(prdJson(THREE), plan);
    const running = project.run(['demo', '--headless', '--parallel', '2', '--wait']);
    await eventSeen(project, 'waiting', 'question');
    expect([...(await landedOrder(project.repo, 'ralph/demo'))].sort()).toEqual(['US-001', 'US-003']);
    const status = await runRalph(['status', 'demo', '--json'], { cwd: project.repo.dir });
    expect(JSON.parse(status.stdout).stories[1]).toMatchObject({ id: 'US-002', waiting: true, attempts: 0 });

    expect((await runRalph(['answer', 'demo', 'US-002', 'SQLite'], { cwd: project.repo.dir })).exitCode).toBe(
      0,
    );
    const result = await running;
    expect(result.exitCode).toBe(0);
    expect(await landedOrder(project.repo, 'ralph/demo')).toEqual(['US-001', 'US-003', 'US-002']);
    expect(project.stories.prompts('US-002').at(-1)).toContain('The answer is: SQLite');
  }, 240_000);
});
