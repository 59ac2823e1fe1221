/**
 * What the page needs from a run's event history that its state files do
 * not hold: the questions asked and not yet answered, what the run is
 * waiting on, and how its last session ended. A pure fold over the records
 * of `events.jsonl`, in order, so the server reads the file once and then
 * only what is appended.
 */
import type { RunEventRecord } from '../events/run-event.js';

export interface AskedQuestion {
  id: string;
  storyId: string | null;
  question: string;
  askedAt: string;
}

export interface RunActivity {
  /** Questions asked and not answered yet, oldest first. */
  questions: readonly AskedQuestion[];
  /** An outage, rate limit or quota the run waits out, until its next iteration. */
  waiting: { reason: string; message: string; until: string | null } | null;
  /** The last session's end. */
  finished: { message: string; exitCode: number; at: string } | null;
  /** The iteration under way, from its start to the session's end. */
  iteration: { number: number; label: string; startedAt: string } | null;
  /** A session started and has not written its end (alive, or killed). */
  sessionOpen?: boolean;
  /** The time of the last record (kept by the follower: it changes with every line, the activity does not). */
  lastAt?: string;
}

export const emptyActivity: RunActivity = { questions: [], waiting: null, finished: null, iteration: null };

export function foldActivity(activity: RunActivity, record: RunEventRecord): RunActivity {
  switch (record.type) {
    case 'question-asked': {
      const asked: AskedQuestion = {
        id: record.questionId,
        storyId: record.storyId ?? null,
        question: record.question,
        // The answer store's own time when the event carries it: the key an answer names.
        askedAt: record.askedAt ?? record.at,
      };
      // Asked again (a later attempt of the same story): the newer wording replaces the older.
      return { ...activity, questions: [...withoutQuestion(activity.questions, record.questionId), asked] };
    }
    case 'question-answered':
      return { ...activity, questions: withoutQuestion(activity.questions, record.questionId) };
    case 'waiting':
      // A question's wait is shown with the question itself.
      if (record.reason === 'question') return activity;
      return {
        ...activity,
        waiting: { reason: record.reason, message: record.message, until: record.until ?? null },
      };
    case 'run-started':
      return { ...activity, finished: null, waiting: null, iteration: null, sessionOpen: true };
    case 'iteration-started':
      return {
        ...activity,
        waiting: null,
        iteration: { number: record.iteration, label: iterationLabel(record), startedAt: record.at },
      };
    case 'run-finished':
      return {
        ...activity,
        waiting: null,
        iteration: null,
        sessionOpen: false,
        finished: { message: record.message, exitCode: record.exitCode, at: record.at },
      };
    default:
      return activity;
  }
}

function withoutQuestion(questions: readonly AskedQuestion[], id: string): AskedQuestion[] {
  return questions.filter((q) => q.id !== id);
}

function iterationLabel(record: Extract<RunEventRecord, { type: 'iteration-started' }>): string {
  if (record.storyId !== undefined)
    return `${record.storyId}${record.attempt !== undefined ? ` attempt ${record.attempt}` : ''}`;
  if (record.mode !== undefined) return record.step ? `${record.mode} ${record.step.id}` : record.mode;
  return `iteration ${record.iteration}`;
}
