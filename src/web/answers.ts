/**
 * The page's one way to the answer store: the questions a run waits on, and
 * recording an answer to one. Answers are lines of the run folder's
 * `answers.jsonl` (`{questionId, askedAt, answer, at}`), appended, so an
 * answer from the page and one from `ralph answer` never overwrite each
 * other; the run takes them in as it goes.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readTextOrNull } from '../state/fs-util.js';
import type { AskedQuestion } from './run-activity.js';
import type { QuestionView } from './view.js';

/** The longest answer taken: an answer goes into a prompt, not a document. */
export const MAX_ANSWER_LENGTH = 20_000;

const AnswerLineSchema = z.object({
  questionId: z.string().min(1),
  askedAt: z.iso.datetime({ offset: true }),
  answer: z.string().min(1).max(MAX_ANSWER_LENGTH),
  at: z.iso.datetime({ offset: true }),
});
type AnswerLine = z.infer<typeof AnswerLineSchema>;

const answersFile = (runDir: string): string => path.join(runDir, 'answers.jsonl');

export class AnswerRefused extends Error {}

/** The questions `asked` (from the run's events) with the answers recorded for them. */
export async function questionsOf(runDir: string, asked: readonly AskedQuestion[]): Promise<QuestionView[]> {
  if (asked.length === 0) return [];
  const lines = await readAnswerLines(runDir);
  return asked.map((q) => {
    const line = lines.find((l) => l.questionId === q.id && l.askedAt === q.askedAt);
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
  const trimmed = text.trim();
  if (trimmed === '') throw new AnswerRefused('the answer is empty');
  if (trimmed.length > MAX_ANSWER_LENGTH)
    throw new AnswerRefused(`the answer is longer than ${MAX_ANSWER_LENGTH} characters`);
  const question = open.find((q) => q.id === id);
  if (question === undefined) throw new AnswerRefused(`no question ${id} waits for an answer`);
  if (question.answer !== null) throw new AnswerRefused(`the question ${id} has been answered already`);
  const line: AnswerLine = {
    questionId: id,
    askedAt: question.askedAt,
    answer: trimmed,
    at: now.toISOString(),
  };
  await mkdir(runDir, { recursive: true });
  await appendFile(answersFile(runDir), `${JSON.stringify(AnswerLineSchema.parse(line))}\n`);
  return { ...question, answer: { text: trimmed, at: line.at } };
}

async function readAnswerLines(runDir: string): Promise<AnswerLine[]> {
  const text = await readTextOrNull(answersFile(runDir));
  if (text === null) return [];
  const lines: AnswerLine[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = AnswerLineSchema.safeParse(JSON.parse(line));
      if (parsed.success) lines.push(parsed.data);
    } catch {
      // A line cut short by a kill: that answer was not recorded.
    }
  }
  return lines;
}
