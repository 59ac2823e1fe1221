import { waitingMessage } from '../core/questions.js';
import { remainingStories } from '../core/select.js';
import type { Story } from '../core/types.js';
import type { AnswerDesk } from './answer-desk.js';
import type { RunContext } from './run-context.js';

/**
 * `--wait`: the run says what it waits for (the questions of the stories
 * left, the story named when there is one) and sits until a person answers
 * one (or Ctrl-C); then it picks again.
 */
export async function waitForAnswer(
  ctx: Pick<RunContext, 'emit' | 'stopSignal' | 'killSignal' | 'onlyStoryId' | 'resumeFromId'>,
  desk: AnswerDesk,
  stories: readonly Story[],
): Promise<void> {
  const scope = { onlyStoryId: ctx.onlyStoryId, resumeFromId: ctx.resumeFromId };
  const left = new Set(remainingStories(stories, scope).map((s) => s.id));
  const open = desk.open().filter((q) => q.storyId !== undefined && left.has(q.storyId));
  const [only] = open;
  ctx.emit({
    type: 'waiting',
    reason: 'question',
    message: waitingMessage(open),
    ...(open.length === 1 && only?.storyId ? { storyId: only.storyId } : {}),
  });
  await desk.nextAnswer(ctx.stopSignal, ctx.killSignal);
}
