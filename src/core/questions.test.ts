import { describe, expect, it } from 'vitest';
import {
  addQuestion,
  answerCommand,
  answeredFor,
  checkAnswer,
  type Question,
  shellWord,
  waitingStories,
  withAnswers,
} from './questions.js';

const q = (id: string, askedAt: string, answer?: string): Question => ({
  id,
  storyId: id,
  question: `about ${id}`,
  askedAt,
  iteration: 1,
  ...(answer ? { answer: { text: answer, at: askedAt } } : {}),
});

describe('questions', () => {
  it('matches an answer by id (any case) and the time its question was asked', () => {
    const questions = [q('US-001', '2026-01-01T00:00:00.000Z'), q('US-002', '2026-01-01T00:00:00.000Z')];
    const merged = withAnswers(questions, [
      {
        questionId: 'us-002',
        askedAt: '2026-01-01T00:00:00.000Z',
        answer: 'yes',
        at: '2026-01-01T01:00:00.000Z',
      },
      {
        questionId: 'US-001',
        askedAt: '2025-12-31T00:00:00.000Z',
        answer: 'stale',
        at: '2026-01-01T01:00:00.000Z',
      },
    ]);
    expect(merged.map((m) => m.answer?.text)).toEqual([undefined, 'yes']);
    expect([...waitingStories(merged)]).toEqual(['US-001']);
    expect(answeredFor(merged, 'US-002').map((m) => m.answer?.text)).toEqual(['yes']);
  });

  it("takes an answer keyed by the question-asked event's time, a few milliseconds off", () => {
    const [question] = withAnswers(
      [q('US-001', '2026-01-01T00:00:00.000Z')],
      [
        {
          questionId: 'US-001',
          askedAt: '2026-01-01T00:00:00.004Z',
          answer: 'yes',
          at: '2026-01-01T01:00:00.000Z',
        },
      ],
    );
    expect(question?.answer?.text).toBe('yes');
  });

  it('replaces an open question asked again, keeps answered ones', () => {
    const first = q('US-001', '2026-01-01T00:00:00.000Z', 'done');
    const open = q('US-001', '2026-01-02T00:00:00.000Z');
    const again = { ...q('US-001', '2026-01-03T00:00:00.000Z'), question: 'new' };
    expect(addQuestion(addQuestion([first], open), again)).toEqual([first, again]);
  });

  it('refuses empty and overlong answers', () => {
    expect(checkAnswer('  ok ')).toEqual({ ok: true, text: 'ok' });
    expect(checkAnswer(' \n ')).toMatchObject({ ok: false });
    expect(checkAnswer('x'.repeat(20_001))).toMatchObject({ ok: false });
  });

  it('shows a command a shell reads back as the same words', () => {
    expect(answerCommand('demo', 'US-002')).toBe('ralph answer demo US-002 "<your answer>"');
    expect(shellWord("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });
});
