/**
 * The page's one way to the answer store: the questions a run waits on, and
 * recording an answer to one. Answers are lines of the run folder's
 * `answers.jsonl` (`{questionId, askedAt, answer, at}`), appended, so an
 * answer from the page and one from `ralph answer` never overwrite each
 * other; the run takes them in as it goes.
 */
import {
  type AnswerLine,
  AnswerLineSchema,
  answersQuestion,
  checkAnswer,
  MAX_ANSWER_LENGTH,
} from '../core/questions.js';
import { appendEvent } from '../state/event-log.js';
import { questionFiles, readAnswerLines } from '../state/questions.js';
import type { AskedQuestion } from './run-activity.js';
import type { QuestionView } from './view.js';

export { MAX_ANSWER_LENGTH };

const answersFile = (runDir: string): string => questionFiles(runDir).answers;

export class AnswerRefused extends Error {}

/** The questions `asked` (from the run's events) with the answers recorded for them. */
export async function questionsOf(runDir: string, asked: readonly AskedQuestion[]): Promise<QuestionView[]> {
  if (asked.length === 0) return [];
  const lines = await readAnswerLines(answersFile(runDir));
  return asked.map((q) => {
    const line = lines.find((l) => answersQuestion(l, q));
    return { ...q, answer: line ? { text: line.answer, at: line.at } : null };
  });
}

/**
 * Records `text` as the answer to the open question `id` among `open`.
 * Throws `AnswerRefused` (nothing written) when there is no such question,
 * it has an answer already, or the text is empty or too long.
 */
export async function recordAnswer(
  runDir: string,
  open: readonly QuestionView[],
  id: string,
  text: string,
  now = new Date(),
): Promise<QuestionView> {
  const checked = checkAnswer(text);
  if (!checked.ok) throw new AnswerRefused(checked.reason);
  const trimmed = checked.text;
  const question = open.find((q) => q.id === id);
  if (question === undefined) throw new AnswerRefused(`no question ${id} waits for an answer`);
  if (question.answer !== null) throw new AnswerRefused(`the question ${id} has been answered already`);
  const line: AnswerLine = {
    questionId: id,
    askedAt: question.askedAt,
    answer: trimmed,
    at: now.toISOString(),
  };
  await appendEvent(answersFile(runDir), AnswerLineSchema.parse(line));
  return { ...question, answer: { text: trimmed, at: line.at } };
}
