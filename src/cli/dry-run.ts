import type { TaskContext } from '../app/task-context.js';
import { ExitCode } from '../core/errors.js';
import { answeredFor, waitingStories } from '../core/questions.js';
import { selectNextStory } from '../core/select.js';
import { storyPromptFor } from '../run/story-prompt.js';
import { workspaceMode } from '../run/workspace.js';
import { openTaskSource } from '../sources/load-task-source.js';
import type { Config } from '../state/config.js';
import { worktreeDir } from '../state/layout.js';
import { listQuestions } from '../state/questions.js';
import type { RunOptions } from './commands/run-options.js';
import { sandboxLines } from './sandbox-line.js';

/**
 * `ralph run --dry-run`: the prompt the next story would get, on stdout, and
 * which of the config's prompt switches shaped it, on stderr; sandboxed, the
 * command line the agent would start with. Runs nothing.
 */
export async function dryRun(
  ctx: TaskContext,
  config: Config,
  opts: RunOptions,
  promptTemplate: string,
): Promise<number> {
  const questions = await listQuestions(ctx.target.runDir);
  const selection = selectNextStory(ctx.prd.stories, {
    onlyStoryId: opts.story,
    resumeFromId: opts.resumeFrom,
    waiting: waitingStories(questions),
  });
  if (selection.kind !== 'story') {
    console.log(
      selection.kind === 'all-done'
        ? 'nothing to do: every story in scope has passed'
        : 'every remaining story is blocked or waits for an answer',
    );
    return ExitCode.Success;
  }
  const prompt = await storyPromptFor(
    {
      cwd: ctx.root,
      name: ctx.target.name,
      source: ctx.source ?? openTaskSource(ctx.livePath),
      progressPath: ctx.target.progressPath,
      promptTemplate,
      config,
      maxRetries: opts.maxRetries ?? config.limits.maxRetries,
    },
    selection.story,
    1,
    undefined,
    answeredFor(questions, selection.story.id),
  );
  process.stdout.write(prompt);
  const switches = Object.entries(config.prompt).map(([name, on]) => `${name} ${on ? 'on' : 'off'}`);
  console.error(`prompt switches (prompt: in .ralph/config.yaml): ${switches.join(', ')}`);
  const checkout =
    workspaceMode(opts, config.worktree.enabled) === 'worktree'
      ? worktreeDir(ctx.root, ctx.target.name)
      : ctx.root;
  const sandbox = await sandboxLines({ root: ctx.root, runDir: ctx.target.runDir, checkout, config, opts });
  for (const line of sandbox) console.error(line);
  return ExitCode.Success;
}
