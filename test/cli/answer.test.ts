/** `ralph answer [target] <id> "<text>"` against a run's questions, with the built CLI. */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepQuestion, listQuestions, questionFiles } from '../../src/state/questions.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { prdJson } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';

let repo: GitFixture | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

async function projectAsking(): Promise<{ repo: GitFixture; runDir: string }> {
  repo = await createGitFixture({
    files: {
      '.ralph/prds/demo/prd.json': prdJson([
        { id: 'US-001', title: 'Add greeting' },
        { id: 'US-002', title: 'Pick a database' },
      ]),
      '.ralph/prds/other/prd.json': prdJson([{ id: 'US-001', title: 'Other' }]),
    },
  });
  const runDir = join(repo.dir, '.ralph', 'runs', 'demo');
  await keepQuestion(runDir, {
    id: 'US-002',
    storyId: 'US-002',
    question: 'PostgreSQL or SQLite?',
    askedAt: '2026-01-02T10:00:00.000Z',
    iteration: 2,
  });
  return { repo, runDir };
}

const ralph = (dir: string, ...args: string[]) => runRalph(['answer', ...args], { cwd: dir });

describe('ralph answer', () => {
  it('records the answer for the named run, and says when it is picked up', async () => {
    const { repo, runDir } = await projectAsking();
    const result = await ralph(repo.dir, 'demo', 'US-002', 'SQLite, file in data/');
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/answered US-002's question in demo/);
    expect(result.stdout).toMatch(/next run of demo/);
    const [question] = await listQuestions(runDir);
    expect(question?.answer?.text).toBe('SQLite, file in data/');
  });

  it('takes an unquoted answer, with or without the run named; the success line is no error line', async () => {
    const { repo, runDir } = await projectAsking();
    const result = await ralph(repo.dir, 'US-002', 'use', 'SQLite,', 'file', 'in', 'data/');
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^answered US-002's question in demo\./);
    expect((await listQuestions(runDir))[0]?.answer?.text).toBe('use SQLite, file in data/');

    await keepQuestion(runDir, {
      id: 'US-001',
      storyId: 'US-001',
      question: 'Which greeting?',
      askedAt: '2026-01-02T11:00:00.000Z',
      iteration: 3,
    });
    const named = await ralph(repo.dir, 'demo', 'US-001', 'say', 'hello');
    expect(named.exitCode).toBe(0);
    expect((await listQuestions(runDir)).find((q) => q.id === 'US-001')?.answer?.text).toBe('say hello');
  });

  it('finds the run without a target, and refuses a second answer with exit 2', async () => {
    const { repo, runDir } = await projectAsking();
    expect((await ralph(repo.dir, 'US-002', 'SQLite')).exitCode).toBe(0);
    const again = await ralph(repo.dir, 'US-002', 'PostgreSQL');
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(/No question US-002 waits for an answer/);
    const named = await ralph(repo.dir, 'demo', 'US-002', 'PostgreSQL');
    expect(named.exitCode).toBe(2);
    expect(named.stderr).toMatch(/answered already/);
    expect((await listQuestions(runDir))[0]?.answer?.text).toBe('SQLite');
  });

  it('refuses an unknown question, an empty answer and a wrong word count, writing nothing', async () => {
    const { repo, runDir } = await projectAsking();
    const unknown = await ralph(repo.dir, 'demo', 'US-001', 'yes');
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(
      /No question US-001 waits for an answer[\s\S]*Waiting for an answer: US-002/,
    );
    expect((await ralph(repo.dir, 'demo', 'US-002', '  ')).exitCode).toBe(2);
    expect((await ralph(repo.dir, 'US-002')).exitCode).toBe(2);
    expect((await ralph(repo.dir, 'a', 'b', 'c', 'd')).exitCode).toBe(2);
    expect((await ralph(repo.dir, '../../etc', 'US-002', 'yes')).exitCode).toBe(2);
    const { existsSync } = await import('node:fs');
    expect(existsSync(questionFiles(runDir).answers)).toBe(false);
  });
});
