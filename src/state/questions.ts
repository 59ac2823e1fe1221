/**
 * The answer store: a run's questions and the answers given to them, in its
 * run folder. `questions.json` is the run's own (written, atomically, only
 * by the run holding the lock); `answers.jsonl` is everyone's (`ralph
 * answer`, the TUI, the web page append one line per answer), so an answer
 * given while the run writes its questions is never lost to a race. The run
 * takes the answers in as it goes (`takeAnswers`); readers see both merged
 * (`listQuestions`).
 */
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../core/errors.js';
import {
  type AnswerLine,
  AnswerLineSchema,
  addQuestion as added,
  checkAnswer,
  isOpen,
  openQuestion,
  type Question,
  QuestionSchema,
  withAnswers,
} from '../core/questions.js';
import { writeFileAtomic } from './atomic.js';
import { appendEvent } from './event-log.js';
import { readTextOrNull } from './fs-util.js';

const QuestionsFileSchema = z.object({ version: z.literal(1), questions: z.array(QuestionSchema) });

export const questionFiles = (runDir: string) => ({
  questions: path.join(runDir, 'questions.json'),
  answers: path.join(runDir, 'answers.jsonl'),
});

/**
 * Every question the run in `runDir` asked, oldest first, each with its
 * answer once one is given (taken in by the run or not yet).
 */
export async function listQuestions(runDir: string): Promise<Question[]> {
  const files = questionFiles(runDir);
  return withAnswers(await readAsked(files.questions), await readAnswerLines(files.answers));
}

/**
 * Records `text` as the answer to the open question `id` of the run in
 * `runDir`, for a live run to pick up within seconds, or the next run.
 * Throws a `UsageError` (nothing written) when there is no such open
 * question or the answer is empty or too long.
 */
export async function recordAnswer(
  runDir: string,
  id: string,
  text: string,
  now: Date = new Date(),
): Promise<Question> {
  const checked = checkAnswer(text);
  if (!checked.ok) throw new UsageError(`Not recorded: ${checked.reason}.`);
  const questions = await listQuestions(runDir);
  const question = openQuestion(questions, id);
  if (question === undefined) throw noOpenQuestion(questions, id);
  const line: AnswerLine = {
    questionId: question.id,
    askedAt: question.askedAt,
    answer: checked.text,
    at: now.toISOString(),
  };
  await appendEvent(questionFiles(runDir).answers, line);
  return { ...question, answer: { text: line.answer, at: line.at } };
}

function noOpenQuestion(questions: readonly Question[], id: string): UsageError {
  const open = questions.filter(isOpen).map((q) => q.id);
  const answered = questions.some((q) => q.id.toLowerCase() === id.trim().toLowerCase());
  return new UsageError(
    answered ? `The question ${id} has been answered already.` : `No question ${id} waits for an answer.`,
    [open.length > 0 ? `Waiting for an answer: ${open.join(', ')}.` : 'No question waits for an answer.'],
  );
}

/** Run side: keeps a question the agent asked (an open one with the same id is replaced). */
export async function keepQuestion(runDir: string, question: Question): Promise<Question[]> {
  return updateAsked(runDir, (questions) => added(questions, question));
}

/**
 * Run side: takes in the answers given since the last call, recording them
 * with their questions, and returns the questions that got one.
 */
export async function takeAnswers(runDir: string): Promise<Question[]> {
  const files = questionFiles(runDir);
  let answered: Question[] = [];
  await updateAsked(runDir, async (questions) => {
    if (!questions.some(isOpen)) return questions;
    const merged = withAnswers(questions, await readAnswerLines(files.answers));
    answered = merged.filter((q, i) => q.answer !== undefined && questions[i]?.answer === undefined);
    return answered.length > 0 ? merged : questions;
  });
  return answered;
}

/** Updates of one run's questions from this process, one at a time (parallel workers ask at once). */
const queues = new Map<string, Promise<unknown>>();

async function updateAsked(
  runDir: string,
  change: (questions: Question[]) => Question[] | Promise<Question[]>,
): Promise<Question[]> {
  const file = questionFiles(runDir).questions;
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined)
    .then(async () => {
      const before = await readAsked(file);
      const after = await change(before);
      if (after !== before) {
        const valid = QuestionsFileSchema.parse({ version: 1, questions: after });
        await writeFileAtomic(file, `${JSON.stringify(valid, null, 2)}\n`);
      }
      return after;
    });
  queues.set(file, next);
  return next;
}

async function readAsked(file: string): Promise<Question[]> {
  const text = await readTextOrNull(file);
  if (text === null) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, error instanceof Error ? error.message : String(error));
  }
  const parsed = QuestionsFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data.questions;
  const issue = parsed.error.issues[0];
  throw corrupt(
    file,
    issue ? `${issue.path.join('.') || '(file)'}: ${issue.message}` : 'not a questions file',
  );
}

function corrupt(file: string, reason: string): UsageError {
  return new UsageError(`${file} is not a valid questions file (${reason}).`, [
    'Nothing was changed; fix the file, or move it away to drop the questions it holds.',
  ]);
}

/** The answers recorded in `answers.jsonl` so far. A line cut short by a kill, or not an answer, is skipped. */
export async function readAnswerLines(file: string): Promise<AnswerLine[]> {
  const text = await readTextOrNull(file);
  if (text === null) return [];
  const lines: AnswerLine[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = AnswerLineSchema.safeParse(JSON.parse(line));
      if (parsed.success) lines.push(parsed.data);
    } catch {
      // A torn last line: the writer was killed mid-append; the answer was not recorded.
    }
  }
  return lines;
}
