import { statSync } from 'node:fs';
import { answeredFor, isOpen, latestAnswer, type Question, waitingStories } from '../core/questions.js';
import type { RunEventSink } from '../events/run-event.js';
import { keepQuestion, listQuestions, questionFiles, takeAnswers } from '../state/questions.js';

/**
 * A run's side of the answer store while it runs: it keeps the questions its
 * agents ask (`question-asked`), and picks answers up as people give them,
 * within `pollMs` (`question-answered`), so a waiting story goes on. Answers
 * given while no run was live are taken in when the desk opens.
 */
export interface AnswerDesk {
  /** Stories that wait for an answer: not attempted until one comes. */
  waiting(): ReadonlySet<string>;
  /** The questions still without an answer, oldest first. */
  open(): readonly Question[];
  /** A story's answered questions, oldest first, for its next prompt. */
  answered(storyId: string): readonly Question[];
  /** The answer to the latest question with this id, once one is given. */
  answerTo(id: string): string | undefined;
  /** Keeps a question the agent asked and says so. */
  ask(question: Omit<Question, 'askedAt' | 'answer'>, emit?: RunEventSink): Promise<Question>;
  /** Takes in the answers given so far; true when one came. */
  poll(): Promise<boolean>;
  /** Resolves at the next answer taken in (or when the desk closes). */
  changed(): Promise<void>;
  /** Resolves at the next answer taken in, or when a signal is aborted. */
  nextAnswer(...signals: AbortSignal[]): Promise<void>;
  close(): void;
}

export interface AnswerDeskOptions {
  runDir: string;
  emit: RunEventSink;
  now: () => Date;
  /** How often the answers file is looked at. */
  pollMs?: number;
}

export async function openAnswerDesk(options: AnswerDeskOptions): Promise<AnswerDesk> {
  const { runDir, emit, now } = options;
  const answersFile = questionFiles(runDir).answers;
  let questions = await listQuestions(runDir);
  let seen = fileMark(answersFile);
  let wake = () => {};
  let changed = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const answeredNow = () => {
    const resolve = wake;
    changed = new Promise<void>((next) => {
      wake = next;
    });
    resolve();
  };

  const poll = async (): Promise<boolean> => {
    seen = fileMark(answersFile);
    const answered = await takeAnswers(runDir);
    if (answered.length === 0) return false;
    questions = await listQuestions(runDir);
    for (const q of answered) {
      emit({
        type: 'question-answered',
        ...(q.storyId !== undefined ? { storyId: q.storyId } : {}),
        questionId: q.id,
        answer: q.answer?.text ?? '',
      });
    }
    answeredNow();
    return true;
  };
  // Polled rather than watched: fs.watch misses writes over network file systems and some editors' renames.
  const timer = setInterval(() => {
    if (!questions.some(isOpen) || fileMark(answersFile) === seen) return;
    poll().catch(() => undefined);
  }, options.pollMs ?? 1000);
  // Not unref'd: a run waiting for an answer (`--wait`) has nothing else keeping the process up. `close` stops it.
  await poll();

  return {
    waiting: () => waitingStories(questions),
    open: () => questions.filter(isOpen),
    answered: (storyId) => answeredFor(questions, storyId),
    answerTo: (id) => latestAnswer(questions, id),
    ask: async (asked, to = emit) => {
      const question: Question = { ...asked, askedAt: now().toISOString() };
      questions = await keepQuestion(runDir, question);
      to({
        type: 'question-asked',
        iteration: question.iteration,
        ...(question.storyId !== undefined ? { storyId: question.storyId } : {}),
        questionId: question.id,
        question: question.question,
        askedAt: question.askedAt,
      });
      return question;
    },
    poll,
    changed: () => changed,
    nextAnswer: (...signals) =>
      new Promise<void>((resolve) => {
        if (signals.some((s) => s.aborted)) return resolve();
        const done = () => {
          for (const s of signals) s.removeEventListener('abort', done);
          resolve();
        };
        void changed.then(done);
        for (const s of signals) s.addEventListener('abort', done, { once: true });
      }),
    close: () => {
      clearInterval(timer);
      answeredNow();
    },
  };
}

/** Size and time of last change: enough to see an append. */
function fileMark(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'none';
  }
}
