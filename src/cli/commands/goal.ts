import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { executeGoal, goalMaxIterations } from '../../app/execute-goal.js';
import { withInterrupts } from '../../app/interrupts.js';
import { alertWishes, webhookTargets } from '../../app/webhooks.js';
import { GOAL_PROMPT } from '../../core/embedded-prompts.js';
import { ExitCode, UsageError } from '../../core/errors.js';
import { chooseGoalRunName } from '../../core/goal-run-name.js';
import { goalQuestionId, latestAnswer } from '../../core/questions.js';
import { type GoalSpec, goalSpecFromText } from '../../goal/goal-spec.js';
import { nameUseIn } from '../../goal/name-use.js';
import { promptFor, repoRelativeGoalFile, selectionFor } from '../../goal/next-iteration.js';
import { goalRunFiles, readGoalProgress } from '../../goal/progress-file.js';
import { beginSession, newGoalProgress } from '../../goal/progress-update.js';
import { readSprintFile } from '../../goal/sprint-file.js';
import { workspaceMode } from '../../run/workspace.js';
import { requireSandbox } from '../../sandbox/run-sandbox.js';
import { type Config, loadConfigOrThrow } from '../../state/config.js';
import { runDir, validatePrdName, workflowFile, workflowsDir, worktreeDir } from '../../state/layout.js';
import { findProjectRoot } from '../../state/project-root.js';
import { listQuestions } from '../../state/questions.js';
import { canDrawLive } from '../../ui/tui/can-draw-live.js';
import { print, printError } from '../output.js';
import { requireGitRepository } from '../require-git.js';
import { openRunSinks } from '../run-sinks.js';
import { sandboxLines } from '../sandbox-line.js';
import type { GoalOptions } from './goal-options.js';
import type { RunOptions } from './run-options.js';

/** `ralph goal "<goal>"` or `ralph goal --file SPRINT.yaml`. */
export async function goalCommand(goal: string | undefined, opts: GoalOptions): Promise<number> {
  await requireGitRepository(process.cwd(), '`ralph goal`');
  const root = await findProjectRoot(process.cwd());
  const config = await loadConfigOrThrow(root);
  const spec = await goalSpec(root, goal, opts, config, false);
  return runGoal(root, config, spec, opts);
}

/** A `ralph run` target that is a goal file rather than a PRD. */
export function isGoalFileTarget(target: string | undefined): target is string {
  if (target === undefined || !/\.ya?ml$/i.test(target)) return false;
  const full = resolve(target);
  return existsSync(full) && statSync(full).isFile();
}

/** `ralph run SPRINT.yaml`: the file must say `workflow: ralph`. */
export async function runGoalFile(file: string, opts: RunOptions): Promise<number> {
  if (opts.story !== undefined || opts.resumeFrom !== undefined) {
    throw new UsageError('--story and --resume-from apply to PRDs, not to a goal file');
  }
  const root = await findProjectRoot(process.cwd());
  const config = await loadConfigOrThrow(root);
  const goalOpts: GoalOptions = {
    file,
    ...pick(opts, ['agent', 'agentPath', 'model', 'maxIterations', 'timeout', 'idleTimeout', 'maxRetries']),
    ...pick(opts, ['maxCost', 'dryRun', 'headless', 'json', 'verbose', 'log']),
    ...pick(opts, ['worktree', 'branch', 'allowDirty', 'force', 'push', 'pr', 'sandbox']),
  };
  const spec = await goalSpec(root, undefined, goalOpts, config, true);
  return runGoal(root, config, spec, goalOpts);
}

async function goalSpec(
  root: string,
  goal: string | undefined,
  opts: GoalOptions,
  config: Config,
  requireWorkflow: boolean,
): Promise<GoalSpec> {
  let spec: GoalSpec;
  if (opts.file !== undefined) {
    if (goal !== undefined) throw new UsageError('give the goal as text or with --file, not both');
    const workflows = workflowsDir(root);
    spec = await readSprintFile(resolve(opts.file), {
      configHooks: config.hooks,
      requireWorkflow,
      workflowExists: (name) => existsSync(workflowFile(workflows, name)),
    });
  } else {
    if (goal === undefined || goal.trim() === '') {
      throw new UsageError('no goal given', [
        'ralph goal "<what to achieve>"  or  ralph goal --file SPRINT.yaml',
      ]);
    }
    spec = goalSpecFromText(goal, { hooks: config.hooks });
  }
  const derived = opts.name === undefined && opts.file === undefined;
  const chosen = chooseGoalRunName(validatePrdName(opts.name ?? spec.name), spec.goal, derived, (name) =>
    nameUseIn(root, name),
  );
  if (!chosen.ok) throw new UsageError(chosen.reason, ['pass --name <another name>']);
  return {
    ...spec,
    name: chosen.name,
    successCriteria: [...spec.successCriteria, ...(opts.criterion ?? [])],
    settings: {
      idleThreshold: opts.idleThreshold ?? spec.settings.idleThreshold,
      minIterations: opts.minIterations ?? spec.settings.minIterations,
    },
  };
}

async function runGoal(root: string, config: Config, spec: GoalSpec, opts: GoalOptions): Promise<number> {
  const dir = runDir(root, spec.name);
  const promptTemplate = loadGoalTemplate(root);
  // Never a silent run without the sandbox asked for: refused here, before a dry run, the TUI or anything else.
  requireSandbox(opts, config);
  if (opts.dryRun) {
    const maxIterations = goalMaxIterations(opts, spec, config);
    print(await dryRunPrompt(root, config, spec, dir, promptTemplate, maxIterations));
    const checkout =
      workspaceMode(opts, config.worktree.enabled) === 'worktree' ? worktreeDir(root, spec.name) : root;
    for (const line of await sandboxLines({ root, runDir: dir, checkout, config, opts })) printError(line);
    return ExitCode.Success;
  }

  // Where Ink cannot draw live (CI set), a terminal gets the plain lines rather than a blank screen.
  if (!opts.headless && !opts.json && process.stdout.isTTY && process.stdin.isTTY && canDrawLive()) {
    const { runGoalInTui } = await import('../tui.js');
    return runGoalInTui(root, config, spec, opts, promptTemplate);
  }
  const log = openRunSinks(spec.name, dir, {
    ...opts,
    webhooks: webhookTargets(config, opts.notify),
    alerts: () => alertWishes(config),
  });
  try {
    return await withInterrupts(
      (how) => log.emit({ type: 'stop-requested', how }),
      ({ stop, kill }) =>
        executeGoal(root, config, spec, opts, {
          promptTemplate,
          emit: log.emit,
          stop,
          kill,
        }),
    );
  } finally {
    await log.close();
  }
}

/** The next iteration's prompt, from the saved progress if the goal has run before. Nothing is written. */
async function dryRunPrompt(
  root: string,
  config: Config,
  spec: GoalSpec,
  dir: string,
  template: string,
  maxIterations: number,
): Promise<string> {
  const goalFileInRepo = repoRelativeGoalFile(root, spec.goalFile);
  const saved = await readGoalProgress(goalRunFiles(dir).progress);
  const progress = beginSession(saved ?? newGoalProgress(spec, new Date(), goalFileInRepo), spec, {
    maxIterations,
  });
  const human = progress.humanNeeded;
  const answer = human ? latestAnswer(await listQuestions(dir), goalQuestionId(human.iteration)) : undefined;
  return promptFor(progress, selectionFor(progress), progress.stats.currentIteration + 1, {
    template,
    checks: config.checks,
    ...(goalFileInRepo !== undefined ? { goalFileInRepo } : {}),
    ...(answer !== undefined ? { answer } : {}),
  });
}

/** `.ralph/goal-prompt.md` overrides the built-in goal prompt. */
function loadGoalTemplate(root: string): string {
  const custom = join(root, '.ralph', 'goal-prompt.md');
  return existsSync(custom) ? readFileSync(custom, 'utf8') : GOAL_PROMPT;
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
