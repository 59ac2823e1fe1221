import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RalphError } from '../core/errors.js';
import type { Question } from '../core/questions.js';
import { keepQuestion, listQuestions, questionFiles, recordAnswer, takeAnswers } from './questions.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ralph-questions-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const asked = (id: string, at: string, extra: Partial<Question> = {}): Question => ({
  id,
  storyId: id,
  question: `Which database for ${id}?`,
  askedAt: at,
  iteration: 2,
  ...extra,
});

describe('the answer store', () => {
  it('lists nothing for a run that never asked', async () => {
    expect(await listQuestions(dir)).toEqual([]);
  });

  it('records an answer to an open question, and lists it with its answer', async () => {
    await keepQuestion(dir, asked('US-002', '2026-01-02T10:00:00.000Z'));
    const answered = await recordAnswer(
      dir,
      'us-002',
      '  PostgreSQL  ',
      new Date('2026-01-02T11:00:00.000Z'),
    );
    expect(answered.answer).toEqual({ text: 'PostgreSQL', at: '2026-01-02T11:00:00.000Z' });
    const [listed] = await listQuestions(dir);
    expect(listed?.answer?.text).toBe('PostgreSQL');
    // Written by the answerer to its own file: the run's questions file is untouched until the run takes it in.
    const own = JSON.parse(await fs.readFile(questionFiles(dir).questions, 'utf8')) as {
      questions: Question[];
    };
    expect(own.questions[0]?.answer).toBeUndefined();
  });

  it('refuses an answer with no open question, an empty answer, and a second answer; nothing is written', async () => {
    await keepQuestion(dir, asked('US-002', '2026-01-02T10:00:00.000Z'));
    await expect(recordAnswer(dir, 'US-009', 'yes')).rejects.toThrow(/No question US-009.*/);
    await expect(recordAnswer(dir, 'US-002', '   ')).rejects.toThrow(/empty/);
    await expect(fs.stat(questionFiles(dir).answers)).rejects.toThrow(/ENOENT/);
    await recordAnswer(dir, 'US-002', 'yes');
    const second = recordAnswer(dir, 'US-002', 'no');
    await expect(second).rejects.toBeInstanceOf(RalphError);
    await expect(second).rejects.toThrow(/answered already/);
    expect((await listQuestions(dir))[0]?.answer?.text).toBe('yes');
  });

  it('takes answers in once, and an answer never lands on a later question with the same id', async () => {
    await keepQuestion(dir, asked('US-002', '2026-01-02T10:00:00.000Z'));
    expect(await takeAnswers(dir)).toEqual([]);
    await recordAnswer(dir, 'US-002', 'PostgreSQL');
    const taken = await takeAnswers(dir);
    expect(taken.map((q) => [q.id, q.answer?.text])).toEqual([['US-002', 'PostgreSQL']]);
    expect(await takeAnswers(dir)).toEqual([]);
    // The story asks again: the old answer is not the new question's.
    await keepQuestion(dir, asked('US-002', '2026-01-02T12:00:00.000Z', { question: 'Which version?' }));
    const listed = await listQuestions(dir);
    expect(listed.map((q) => [q.question, q.answer?.text])).toEqual([
      ['Which database for US-002?', 'PostgreSQL'],
      ['Which version?', undefined],
    ]);
  });

  it('skips a torn last line of the answers file', async () => {
    await keepQuestion(dir, asked('US-002', '2026-01-02T10:00:00.000Z'));
    await fs.writeFile(questionFiles(dir).answers, '{"questionId":"US-002","askedAt":"2026-01-');
    expect((await listQuestions(dir))[0]?.answer).toBeUndefined();
    // The next append starts on a line of its own.
    await recordAnswer(dir, 'US-002', 'yes');
    expect((await listQuestions(dir))[0]?.answer?.text).toBe('yes');
  });

  it('keeps every question when workers ask at once', async () => {
    await Promise.all(
      ['US-001', 'US-002', 'US-003', 'US-004'].map((id, i) =>
        keepQuestion(dir, asked(id, `2026-01-02T10:00:0${i}.000Z`)),
      ),
    );
    expect((await listQuestions(dir)).map((q) => q.id).sort()).toEqual([
      'US-001',
      'US-002',
      'US-003',
      'US-004',
    ]);
  });

  it('names a corrupt questions file and changes nothing', async () => {
    await fs.writeFile(questionFiles(dir).questions, '{"version":1,"questions":[{"id":""}]}');
    await expect(listQuestions(dir)).rejects.toThrow(
      /questions\.json is not a valid questions file \(questions\.0/,
    );
  });
});
