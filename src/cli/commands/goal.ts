import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { GOAL_PROMPT } from '../../core/embedded-prompts.js';
import { ExitCode, UsageError } from '../../core/errors.js';
import { runGoalLoop } from '../../goal/engine.js';
import type { GoalEvent } from '../../goal/events.js';
import { type GoalSpec, goalSpecFromText } from '../../goal/goal-spec.js';
import { promptFor, repoRelativeGoalFile, selectionFor } from '../../goal/next-iteration.js';
import { goalRunFiles, readGoalProgress } from '../../goal/progress-file.js';
import { beginSession, newGoalProgress } from '../../goal/progress-update.js';
import { createGoalReporter } from '../../goal/reporter.js';
import { readSprintFile } from '../../goal/sprint-file.js';
import { type Config, loadConfigOrThrow } from '../../state/config.js';
import { runDir, validatePrdName } from '../../state/layout.js';
import { findProjectRoot } from '../../state/project-root.js';
import { setUpAgent } from '../agent-setup.js';
import { requireGitRepository } from '../require-git.js';
import { DEFAULT_GOAL_MAX_ITERATIONS, type GoalOptions } from './goal-options.js';
import type { RunOptions } from './run-options.js';

/** How long parallel hooks still running at the end are awaited before they are killed. */
const HOOK_DRAIN_MS = 60_000;

/** `ralph goal "<goal>"` or `ralph goal --file SPRINT.yaml`. */
export async function goalCommand(goal: string | undefined, opts: GoalOptions): Promise<number> {
  await requireGitRepository(process.cwd(), '`ralph goal`');
  const root = await findProjectRoot(process.cwd());
  const config = await loadConfigOrThrow(root);
  const spec = await goalSpec(goal, opts, config, false);
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
    ...pick(opts, ['maxCost', 'dryRun', 'headless', 'json', 'verbose', 'log', 'force']),
  };
  const spec = await goalSpec(undefined, goalOpts, config, true);
  return runGoal(root, config, spec, goalOpts);
}

async function goalSpec(
  goal: string | undefined,
  opts: GoalOptions,
  config: Config,
  requireWorkflow: boolean,
): Promise<GoalSpec> {
  let spec: GoalSpec;
  if (opts.file !== undefined) {
    if (goal !== undefined) throw new UsageError('give the goal as text or with --file, not both');
    spec = await readSprintFile(resolve(opts.file), { configHooks: config.hooks, requireWorkflow });
  } else {
    if (goal === undefined || goal.trim() === '') {
      throw new UsageError('no goal given', [
        'ralph goal "<what to achieve>"  or  ralph goal --file SPRINT.yaml',
      ]);
    }
    spec = goalSpecFromText(goal, { hooks: config.hooks });
  }
  return {
    ...spec,
    name: validatePrdName(opts.name ?? spec.name),
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
  const maxIterations =
    opts.maxIterations ?? spec.maxIterations ?? config.limits.maxIterations ?? DEFAULT_GOAL_MAX_ITERATIONS;
  if (opts.dryRun) {
    console.log(await dryRunPrompt(root, config, spec, dir, promptTemplate, maxIterations));
    return ExitCode.Success;
  }

  const agent = await setUpAgent(config, opts);
  const logPath = opts.log ?? goalRunFiles(dir).log;
  mkdirSync(dirname(logPath), { recursive: true });
  const log = createWriteStream(logPath, { flags: 'a' });
  const toLog = createGoalReporter({ verbose: true, write: (line) => log.write(`${line}\n`) });
  const toScreen = opts.json
    ? (event: GoalEvent) => process.stdout.write(`${JSON.stringify(event)}\n`)
    : createGoalReporter({
        verbose: opts.verbose ?? false,
        write: (line) => process.stdout.write(`${line}\n`),
      });
  const emit = (event: GoalEvent) => {
    toLog(event);
    toScreen(event);
  };

  const stop = new AbortController();
  const kill = new AbortController();
  const onSigint = () => {
    if (!stop.signal.aborted) {
      stop.abort();
      emit({ type: 'stop-requested', how: 'graceful' });
    } else if (!kill.signal.aborted) {
      kill.abort();
      emit({ type: 'stop-requested', how: 'immediate' });
    }
  };
  // A terminal closing or a supervisor stopping us gets the immediate stop.
  const onTerm = () => {
    stop.abort();
    kill.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onTerm);
  try {
    const limits = config.limits;
    const maxCostUsd = opts.maxCost ?? limits.maxCost ?? undefined;
    const outcome = await runGoalLoop({
      cwd: root,
      spec,
      runDir: dir,
      config,
      agent,
      limits: {
        maxIterations,
        timeoutMs: (opts.timeout ?? limits.timeout) * 1000,
        idleTimeoutMs: (opts.idleTimeout ?? limits.idleTimeout) * 1000,
        maxConsecutiveFailures: opts.maxRetries ?? limits.maxRetries,
        ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
        rateLimitBackoffMs: envMs('RALPH_RATE_LIMIT_BACKOFF_MS', 60_000),
        hookDrainMs: envMs('RALPH_HOOK_DRAIN_MS', HOOK_DRAIN_MS),
      },
      promptTemplate,
      stopSignal: stop.signal,
      killSignal: kill.signal,
      emit,
      ...(opts.force ? { force: true } : {}),
    });
    return outcome.exitCode;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onTerm);
    await new Promise<void>((done) => log.end(done));
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
  return promptFor(progress, selectionFor(progress), progress.stats.currentIteration + 1, {
    template,
    checks: config.checks,
    ...(goalFileInRepo !== undefined ? { goalFileInRepo } : {}),
  });
}

/** `.ralph/goal-prompt.md` overrides the built-in goal prompt. */
function loadGoalTemplate(root: string): string {
  const custom = join(root, '.ralph', 'goal-prompt.md');
  return existsSync(custom) ? readFileSync(custom, 'utf8') : GOAL_PROMPT;
}

/** A duration from the environment (tests, impatient users), else the default. */
function envMs(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value >= 0 && process.env[name] !== undefined ? value : fallback;
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
