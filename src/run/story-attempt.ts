import type { AgentSetup } from '../agents/adapter.js';
import type { CollectedUsage } from '../agents/agent-collector.js';
import { type AttemptEvent, type AttemptRequest, attemptBounds } from '../attempt/attempt-request.js';
import type { Question } from '../core/questions.js';
import type { Signals } from '../core/signals.js';
import { storyShape } from '../core/story-shape.js';
import type { Story } from '../core/types.js';
import type { Verdict } from '../core/verdict.js';
import type { RunEvent, RunEventSink } from '../events/run-event.js';
import { iterationLogPath } from '../state/layout.js';
import type { Failure } from '../state/run-state.js';
import type { RunContext } from './run-context.js';
import { storyPromptFor } from './story-prompt.js';
import { isToolFile, toolPaths } from './tool-files.js';

/** One story attempt as a runner asks for it: which story, where, and how its start and spend are recorded. */
export interface StoryAttemptSpec {
  /** The run as seen from the checkout the attempt works in (the PRD's, or the story's own). */
  ctx: RunContext;
  story: Story;
  /** This attempt's number for the story, and the run's iteration number. */
  attempt: number;
  iteration: number;
  lastFailure?: Failure;
  /** Parallel runs: why the story's verified work was dropped and it is redone (not a failed attempt). */
  lastRequeue?: Failure;
  /** The story's questions a person has answered, for its prompt. */
  answered?: readonly Question[];
  agent: AgentSetup;
  /** The last iteration number this session may reach, for `iteration N/last` (see `lastIterationOf`). */
  lastIteration?: number;
  /** Where the attempt's events go, before any lane tag the caller adds. */
  emit: RunEventSink;
  /** What must survive a kill, awaited before the attempt goes on. */
  record: {
    /** HEAD is known and nothing runs yet: the attempt's `RALPH_ATTEMPT` token finds its processes after a kill. */
    begin(headBefore: string, token: string): Promise<void>;
    spawned(pid: number): Promise<void>;
    agentDone(usage: CollectedUsage & { durationMs: number }): Promise<void>;
  };
}

/**
 * The attempt kernel's request for one story attempt, the same for the
 * sequential and the parallel runner: the story's prompt, the tool's files,
 * the gates, the story shape, and the story's events around the kernel's steps.
 */
export async function storyAttemptRequest(spec: StoryAttemptSpec): Promise<AttemptRequest<Signals, Verdict>> {
  const { ctx, story, emit, record } = spec;
  const at = { iteration: spec.iteration, storyId: story.id };
  return {
    cwd: ctx.cwd,
    prompt: await storyPromptFor(
      { ...ctx, maxRetries: ctx.limits.maxRetries },
      story,
      spec.attempt,
      spec.lastFailure,
      spec.answered,
      spec.lastRequeue,
    ),
    agent: spec.agent,
    ...attemptBounds(ctx),
    rawLogPath: iterationLogPath(ctx.files.dir, spec.iteration),
    toolPaths: toolPaths(ctx),
    isToolPath: (path) => isToolFile(ctx, path),
    shape: storyShape(story.id),
    begin: async (headBefore, token) => {
      await record.begin(headBefore, token);
      emit({
        type: 'iteration-started',
        iteration: spec.iteration,
        maxIterations: ctx.limits.maxIterations ?? 0,
        storyId: story.id,
        title: story.title,
        attempt: spec.attempt,
        maxAttempts: ctx.limits.maxRetries,
        headBefore,
        agent: spec.agent.adapter.name,
        ...(spec.lastIteration !== undefined ? { lastIteration: spec.lastIteration } : {}),
      });
    },
    spawned: record.spawned,
    agentDone: async ({ usage, said }) => {
      reportAgentDone(emit, at, said, usage);
      // The spend counts at once; the time only once the attempt counts (see `attemptDuration`).
      await record.agentDone({ ...usage, durationMs: 0 });
    },
    emit: (event) =>
      emit(
        event.type === 'agent-silent'
          ? { ...event, ...at, agent: spec.agent.adapter.name, attempt: spec.attempt }
          : storyAttemptEvent(event, at),
      ),
  };
}

/** A kernel event as the story runners report it, tagged with the iteration and story. */
export function storyAttemptEvent(
  event: Exclude<AttemptEvent, { type: 'agent-silent' }>,
  at: { iteration: number; storyId: string },
): RunEvent {
  switch (event.type) {
    case 'agent-event':
      return { ...event, ...at };
    case 'tool-file-restored':
      return { type: 'task-file-restored', storyId: at.storyId, path: event.path };
    case 'attempt-undone':
      return { ...event, ...at };
    default:
      return { ...event, iteration: at.iteration };
  }
}

/** The agent's signals and spend, as events, once it has stopped. */
export function reportAgentDone(
  emit: RunEventSink,
  at: { iteration: number; storyId: string },
  said: Signals,
  usage: CollectedUsage,
): void {
  const signal = (signal: 'done' | 'fail' | 'learn', detail: string) =>
    emit({ type: 'signal', ...at, signal, detail });
  for (const id of said.done) signal('done', id);
  for (const f of said.fail) signal('fail', `${f.id}: ${f.reason}`);
  for (const l of said.learn) signal('learn', l);
  emit({ type: 'usage', ...at, ...usage });
}
