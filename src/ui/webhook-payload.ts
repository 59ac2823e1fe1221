/**
 * What a webhook is told about a run: which of its events a person away
 * from the terminal needs (a question, a parked story, a wait, an agent that
 * cannot log in, a limit, the end), each as one JSON body with one sentence
 * Slack, Mattermost and similar incoming webhooks show as it is.
 */
import { formatUsd, roundUsd } from '../core/money.js';
import type { Notification, NotifyEvent } from '../core/notification.js';
import { answerCommand, oneLine } from '../core/questions.js';
import { visibleText } from '../core/visible-text.js';
import type { RunEventRecord } from '../events/run-event.js';

/** What the notifications of one run carry beside the event: kept up to date from the events. */
export interface RunTally {
  /** The PRD's name, or the goal run's. */
  run: string;
  /** Set for a goal run: its goal's first line. */
  goal?: string;
  passed: number;
  total: number;
  costUsd: number;
}

export const newTally = (run: string): RunTally => ({ run, passed: 0, total: 0, costUsd: 0 });

/** The tally after `event`. */
export function tallied(tally: RunTally, event: RunEventRecord): RunTally {
  switch (event.type) {
    case 'run-started': {
      const goal = event.goal ? firstLineOf(event.goal.text) : undefined;
      return {
        ...tally,
        ...(goal !== undefined ? { goal } : {}),
        passed: event.passed ?? event.goal?.steps.completed ?? tally.passed,
        total: event.total ?? event.goal?.steps.total ?? tally.total,
        costUsd: event.costUsd ?? tally.costUsd,
      };
    }
    case 'usage':
      return { ...tally, costUsd: tally.costUsd + event.costUsd };
    case 'story-passed':
      return { ...tally, passed: Math.min(tally.total, tally.passed + 1) };
    case 'goal-result':
      return { ...tally, passed: event.steps.completed, total: event.steps.total };
    case 'run-finished':
      return { ...tally, passed: event.passed, total: event.total, costUsd: event.costUsd };
    default:
      return tally;
  }
}

/** The notifications `event` makes (none for most events). `tally` is the one after the event. */
export function notificationsFor(event: RunEventRecord, tally: RunTally): Notification[] {
  const base = (kind: NotifyEvent, text: string, story?: string): Notification => ({
    event: kind,
    text: oneLine(visibleText(text), 1000),
    prd: tally.run,
    ...(tally.goal !== undefined ? { goal: tally.goal } : {}),
    ...(story !== undefined ? { story } : {}),
    passed: tally.passed,
    total: tally.total,
    costUsd: roundUsd(tally.costUsd),
    at: event.at,
  });
  const who = tally.goal !== undefined ? `goal run ${tally.run}` : tally.run;
  const counts = `${tally.passed}/${tally.total} ${tally.goal !== undefined ? 'steps' : 'stories'} done, ${formatUsd(tally.costUsd)} spent`;
  const resume =
    tally.goal !== undefined ? 'run the same `ralph goal` command again' : `ralph run ${tally.run}`;
  switch (event.type) {
    case 'question-asked': {
      const command = answerCommand(tally.run, event.questionId);
      const about = event.storyId ?? who;
      return [
        {
          ...base('question', `${about} asks: ${event.question} — answer with: ${command}`, event.storyId),
          questionId: event.questionId,
          question: event.question,
          answerCommand: command,
        },
      ];
    }
    case 'story-parked':
      return [
        {
          ...base(
            'story-parked',
            `${event.storyId} of ${who} is parked after ${event.attempts} attempts: ${event.reason}`,
            event.storyId,
          ),
          reason: event.reason,
          attempts: event.attempts,
        },
      ];
    case 'waiting':
      // A wait for answers follows the questions, which were told already.
      if (event.reason === 'question') return [];
      return [
        {
          ...base(
            'waiting',
            `${who} is waiting (${event.reason}${event.until ? ` until ${event.until}` : ''}): ${event.message}`,
            event.storyId,
          ),
          reason: event.reason,
          message: event.message,
          ...(event.until !== undefined ? { until: event.until } : {}),
          ...(event.waitMs !== undefined ? { waitMs: event.waitMs } : {}),
          ...(event.agent !== undefined ? { agent: event.agent } : {}),
        },
      ];
    case 'agent-unusable':
      return [
        {
          ...base(
            'auth-failed',
            `${who} stopped: ${event.agent} cannot be used: ${event.message}. ${event.fix}`,
          ),
          agent: event.agent,
          kind: event.kind,
          message: event.message,
          fix: event.fix,
        },
      ];
    case 'run-finished': {
      const details = {
        outcome: event.reason,
        exitCode: event.exitCode,
        message: event.message,
        parked: event.parked,
        iterations: event.iterations,
        ...(event.questions ? { questions: event.questions } : {}),
        ...(event.exitCode === 0 ? {} : { resume }),
      };
      const finished: Notification = {
        ...base('run-finished', finishedText(who, event, counts, resume)),
        ...details,
      };
      if (event.exitCode !== 3) return [finished];
      const limit: Notification = {
        ...base(
          'limit-reached',
          `${who} reached a limit: ${event.message} (${counts}). Resume with: ${resume}`,
        ),
        limit: event.reason,
        ...details,
      };
      return [limit, finished];
    }
    default:
      return [];
  }
}

function finishedText(
  who: string,
  event: Extract<RunEventRecord, { type: 'run-finished' }>,
  counts: string,
  resume: string,
): string {
  if (event.exitCode === 0) return `${who} finished: ${event.message} (${counts}).`;
  const questions = (event.questions ?? []).map(
    (q) => `${q.storyId ?? q.id} asks: ${q.question} — ${q.command}`,
  );
  const waiting = questions.length > 0 ? ` Questions: ${questions.join('; ')}.` : '';
  const parked = event.parked.length > 0 ? ` Parked: ${event.parked.join(', ')}.` : '';
  return `${who} stopped (${event.reason}): ${event.message} (${counts}).${parked}${waiting} Resume with: ${resume}`;
}

const firstLineOf = (text: string): string => text.trim().split('\n')[0] ?? '';
