/**
 * Questions an agent asks a person (`<ralph>ASK <id>: …</ralph>`, or a goal
 * iteration's `needs-human`) and the answers people give. The run that asked
 * keeps its questions; anyone may answer (`ralph answer`, the TUI, the web
 * page), so answers travel apart from the questions and are matched to them
 * here: by the id a person types and the time the question was asked, so an
 * answer never lands on a later question with the same id.
 */
import { z } from 'zod';

const Timestamp = z.iso.datetime({ offset: true });

/** The longest answer taken: an answer goes into a prompt, not a document. */
export const MAX_ANSWER_LENGTH = 20_000;

export const AnswerSchema = z.object({ text: z.string().min(1), at: Timestamp });

export const QuestionSchema = z.object({
  /** What `ralph answer` takes: the story's id, or `Q<iteration>` on a goal run. */
  id: z.string().min(1),
  /** The story that waits for the answer (a goal run's question has none). */
  storyId: z.string().min(1).optional(),
  question: z.string(),
  askedAt: Timestamp,
  iteration: z.number().int().positive(),
  answer: AnswerSchema.optional(),
});
export type Question = z.infer<typeof QuestionSchema>;

/** One answer as it is recorded: the question it answers, named by its id and when it was asked. */
export const AnswerLineSchema = z.object({
  questionId: z.string().min(1),
  askedAt: Timestamp,
  answer: z.string().min(1).max(MAX_ANSWER_LENGTH),
  at: Timestamp,
});
export type AnswerLine = z.infer<typeof AnswerLineSchema>;

/** The question id of a goal run's `needs-human` in iteration `iteration`. */
export const goalQuestionId = (iteration: number): string => `Q${iteration}`;

const sameId = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

export const isOpen = (question: Question): boolean => question.answer === undefined;

/**
 * How far an answer's `askedAt` may be from its question's: a follower of
 * `events.jsonl` may key it by the `question-asked` event's own time, a few
 * milliseconds after the store's. Two questions with one id are always an
 * agent run and an answer apart, far more than this.
 */
const ASKED_AT_SLACK_MS = 2000;

/** Whether `line` answers the question with this id asked at this time. */
export const answersQuestion = (line: AnswerLine, question: Pick<Question, 'id' | 'askedAt'>): boolean =>
  sameId(line.questionId, question.id) &&
  Math.abs(Date.parse(line.askedAt) - Date.parse(question.askedAt)) <= ASKED_AT_SLACK_MS;

/** The questions with the answers given for them; the first answer given to a question is the one. */
export function withAnswers(questions: readonly Question[], lines: readonly AnswerLine[]): Question[] {
  return questions.map((question) => {
    if (question.answer) return question;
    const line = lines.find((l) => answersQuestion(l, question));
    return line ? { ...question, answer: { text: line.answer, at: line.at } } : question;
  });
}

/** The unanswered question with this id, if there is one. */
export const openQuestion = (questions: readonly Question[], id: string): Question | undefined =>
  questions.find((q) => isOpen(q) && sameId(q.id, id));

/** Stories whose latest question has no answer yet: they wait, and are not attempted. */
export function waitingStories(questions: readonly Question[]): Set<string> {
  const waiting = new Set<string>();
  for (const q of questions) if (q.storyId !== undefined && isOpen(q)) waiting.add(q.storyId);
  return waiting;
}

/** A story's answered questions, oldest first: what its next prompt says it was told. */
export const answeredFor = (questions: readonly Question[], storyId: string): Question[] =>
  questions.filter((q) => q.storyId === storyId && !isOpen(q));

/** The answer to the latest question with this id, once one is given. */
export const latestAnswer = (questions: readonly Question[], id: string): string | undefined =>
  questions.findLast((q) => sameId(q.id, id))?.answer?.text;

/** Adds a question; an open one with the same id (asked again before an answer) is replaced. */
export function addQuestion(questions: readonly Question[], question: Question): Question[] {
  return [...questions.filter((q) => !(isOpen(q) && sameId(q.id, question.id))), question];
}

/** An answer as a person gave it: trimmed, and refused when empty or too long. */
export function checkAnswer(text: string): { ok: true; text: string } | { ok: false; reason: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'the answer is empty' };
  if (trimmed.length > MAX_ANSWER_LENGTH) {
    return { ok: false, reason: `the answer is longer than ${MAX_ANSWER_LENGTH} characters` };
  }
  return { ok: true, text: trimmed };
}

/** A word as a POSIX shell reads it back: bare when it is plain, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9._:/@%+=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command that answers a question of run `run`, to show a person. */
export const answerCommand = (run: string, id: string): string =>
  `ralph answer ${shellWord(run)} ${shellWord(id)} "<your answer>"`;

/** A question still open when a run stops, as the run's last words list it for a person. */
export interface OpenQuestionNote {
  id: string;
  storyId?: string;
  question: string;
  /** The command that answers it. */
  command: string;
}

export const openQuestionNotes = (run: string, questions: readonly Question[]): OpenQuestionNote[] =>
  questions.filter(isOpen).map((q) => ({
    id: q.id,
    ...(q.storyId !== undefined ? { storyId: q.storyId } : {}),
    question: q.question,
    command: answerCommand(run, q.id),
  }));

/** The message of a run that stops for its questions (or waits for them). */
export function waitingMessage(questions: readonly Question[]): string {
  const open = questions.filter(isOpen);
  const list = open.map((q) => `${q.storyId ?? q.id} (${oneLine(q.question)})`).join('; ');
  return `waiting for ${open.length === 1 ? 'an answer' : 'answers'}: ${list}`;
}

/** A question shown on one line, shortened. */
export function oneLine(text: string, max = 200): string {
  const flat = text.trim().replace(/\s*\n\s*/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** What a story that asked learned, for its pass record and later stories' prompts. */
export const answeredLearning = (q: Question): string =>
  `${q.storyId ?? q.id} asked: ${oneLine(q.question, 500)} Answer: ${oneLine(q.answer?.text ?? '', 1000)}`;
