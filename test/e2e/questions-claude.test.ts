/**
 * Questions and answers end to end: the real Claude Code against the scripted
 * model, whose agent asks with `<ralph>ASK …</ralph>`; a person answers with
 * `ralph answer`; webhooks land on a local HTTP server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopProject, featSubjects, type LoopProject, prdJson } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

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
let hooks: WebhookReceiver | undefined;
afterEach(async () => {
  await project?.cleanup();
  await hooks?.close();
  project = undefined;
  hooks = undefined;
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
    hooks = await startWebhookReceiver();
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
