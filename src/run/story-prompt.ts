import { relative } from 'node:path';
import { buildStoryPrompt } from '../core/prompt.js';
import type { Question } from '../core/questions.js';
import type { Story } from '../core/types.js';
import type { TaskSource } from '../sources/task-source.js';
import type { Config } from '../state/config.js';
import { readCodebasePatterns, readProgress } from '../state/progress.js';
import type { Failure } from '../state/run-state.js';
import type { SetupEnvironment } from './worktree-setup.js';

/** What a story's prompt is made from, for a run and for `ralph run --dry-run` alike. */
export interface StoryPromptSources {
  /** Where the agent works; the task and progress files are named relative to it. */
  cwd: string;
  name: string;
  source: TaskSource;
  progressPath: string;
  promptTemplate: string;
  config: Pick<Config, 'checks' | 'prompt'>;
  maxRetries: number;
  environment?: SetupEnvironment;
}

/**
 * The prompt for attempt `attempt` at `story`; from the second attempt on, it
 * says why the last one failed, and once the story's agent asked a person,
 * what it asked and the answer (`answered`).
 */
export async function storyPromptFor(
  sources: StoryPromptSources,
  story: Story,
  attempt = 1,
  last?: Failure,
  answered: readonly Question[] = [],
  /** Parallel runs: why its verified work was dropped, when it was (see `markRequeued`). */
  requeue?: Failure,
): Promise<string> {
  const { cwd, environment } = sources;
  const progress = await readProgress(sources.progressPath);
  const prd = await sources.source.read();
  return buildStoryPrompt({
    template: sources.promptTemplate,
    story,
    prd: {
      name: sources.name,
      project: prd.ok ? prd.prd.project : sources.name,
      ...(prd.ok && prd.prd.description ? { description: prd.prd.description } : {}),
    },
    codebasePatterns: readCodebasePatterns(progress),
    checks: sources.config.checks,
    practices: sources.config.prompt,
    ...(environment
      ? {
          environment: {
            command: environment.command,
            paths: [...environment.changed, ...environment.created],
          },
        }
      : {}),
    ...(attempt > 1 && last
      ? {
          retry: {
            attempt,
            maxAttempts: sources.maxRetries,
            reason: last.reason,
            ...(last.gateOutputTail ? { gateOutputTail: last.gateOutputTail } : {}),
          },
        }
      : {}),
    ...(requeue
      ? {
          requeue: {
            reason: requeue.reason,
            ...(requeue.gateOutputTail ? { detail: requeue.gateOutputTail } : {}),
          },
        }
      : {}),
    answers: answered.map((q) => ({ question: q.question, answer: q.answer?.text ?? '' })),
    // A remote source (GitHub issues) is named by its address.
    taskFilePath: sources.source.remote
      ? sources.source.path
      : relative(cwd, sources.source.path) || sources.source.path,
    progressFilePath: relative(cwd, sources.progressPath) || sources.progressPath,
  });
}
