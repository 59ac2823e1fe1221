/**
 * What the page may change: an answer to a waiting question, and a Pause or
 * Stop for a live run. Each request's body is checked with zod; each reply
 * is a status and one sentence.
 */
import { z } from 'zod';
import { runFiles } from '../state/layout.js';
import { inspectLock } from '../state/lock.js';
import { CONTROL_REQUESTS, writeControlRequest } from '../state/run-control.js';
import { AnswerRefused, MAX_ANSWER_LENGTH, recordAnswer } from './answers.js';
import type { ProjectWatch } from './project-watch.js';

export const AnswerBodySchema = z.object({
  questionId: z.string().min(1).max(200),
  text: z.string().max(MAX_ANSWER_LENGTH * 2),
});

export const ControlBodySchema = z.object({ request: z.enum(CONTROL_REQUESTS) });

export interface ActionReply {
  status: number;
  message: string;
}

/** How a run stopped from the page goes on: its own command again (a goal run's is the same `ralph goal` command). */
function resumeCommand(kind: 'prd' | 'goal', run: string): string {
  return kind === 'goal' ? 'ralph goal (the same command)' : `ralph run ${run}`;
}

/** Who the log says asked, when a run is paused or stopped from the page. */
export const FROM_PAGE = 'web page';

export async function answer(watch: ProjectWatch, run: string, body: unknown): Promise<ActionReply> {
  const parsed = AnswerBodySchema.safeParse(body);
  if (!parsed.success) return { status: 400, message: 'expected {questionId, text}' };
  const found = watch.find(run);
  if (found === null) return { status: 404, message: `no run ${run}` };
  try {
    const answered = await recordAnswer(
      found.ref.runDir,
      found.view.questions,
      parsed.data.questionId,
      parsed.data.text,
    );
    await watch.look();
    const live = found.view.live !== null;
    return {
      status: 200,
      message: `answered ${answered.id}; ${live ? 'the running loop picks it up within seconds' : `the next run of ${run} puts it into the prompt`}`,
    };
  } catch (error) {
    if (error instanceof AnswerRefused) return { status: 409, message: error.message };
    throw error;
  }
}

export async function control(watch: ProjectWatch, run: string, body: unknown): Promise<ActionReply> {
  const parsed = ControlBodySchema.safeParse(body);
  if (!parsed.success) return { status: 400, message: `expected {request: ${CONTROL_REQUESTS.join(' | ')}}` };
  const found = watch.find(run);
  if (found === null) return { status: 404, message: `no run ${run}` };
  const lock = await inspectLock(runFiles(found.ref.runDir).lock);
  if (lock.kind !== 'held' || lock.info === null) return { status: 409, message: `${run} is not running` };
  await writeControlRequest(found.ref.runDir, parsed.data.request, lock.info, FROM_PAGE);
  await watch.look();
  return {
    status: 202,
    message:
      parsed.data.request === 'pause'
        ? `${run} stops after the iteration under way; \`${resumeCommand(found.ref.kind, run)}\` goes on from there`
        : `${run} stops now; the attempt under way is rolled back; \`${resumeCommand(found.ref.kind, run)}\` goes on from there`,
  };
}
