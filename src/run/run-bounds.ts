import type { ExitCode } from '../core/errors.js';
import type { StoryRunView } from '../core/next-step.js';
import type { OpenQuestionNote } from '../core/questions.js';
import { remainingStories } from '../core/select.js';
import type { Prd } from '../core/types.js';
import type { RunEvent, StopReason } from '../events/run-event.js';
import type { RunState } from '../state/run-state.js';
import { createHookRunner, type HookRunner } from './hooks.js';
import type { RunContext } from './run-context.js';

/** Where a PRD run, sequential or parallel, starts and ends. */

/**
 * The start of a PRD run, sequential or parallel: the iteration limit
 * (`-n`, else the stories left in scope + 5; the TUI may steer it) and the
 * `run-started` event.
 */
export function announceRun(
  ctx: RunContext,
  prd: Prd,
  resumed: boolean,
  spentBefore = 0,
  iterationsBefore = 0,
): { baseMaxIterations: number; maxIterations: number } {
  const scope = { onlyStoryId: ctx.onlyStoryId, resumeFromId: ctx.resumeFromId };
  const remaining = remainingStories(prd.stories, scope).length;
  const baseMaxIterations = ctx.limits.maxIterations ?? remaining + 5;
  const maxIterations = ctx.steering?.maxIterations ?? baseMaxIterations;
  ctx.limits = { ...ctx.limits, maxIterations };
  ctx.emit({
    type: 'run-started',
    name: ctx.name,
    project: prd.project,
    agent: ctx.agent.adapter.name,
    cwd: ctx.cwd,
    maxIterations,
    ...(iterationsBefore > 0 ? { lastIteration: iterationsBefore + maxIterations } : {}),
    remaining,
    resumed,
    passed: prd.stories.filter((s) => s.status === 'done').length,
    total: prd.stories.length,
    costUsd: spentBefore,
    ...(ctx.wrap?.label ? { sandbox: ctx.wrap.label } : {}),
  });
  return { baseMaxIterations, maxIterations };
}

/** The run's hooks, run in its checkout after each iteration. */
export function createRunHooks(ctx: RunContext, emit: (event: RunEvent) => void = ctx.emit): HookRunner {
  return createHookRunner({
    hooks: ctx.config.hooks,
    cwd: ctx.cwd,
    runDir: ctx.files.dir,
    agent: ctx.agent,
    emit,
    timeoutMs: ctx.limits.timeoutMs,
    idleTimeoutMs: ctx.limits.idleTimeoutMs,
    ...(ctx.wrap ? { wrap: ctx.wrap } : {}),
    now: ctx.now,
  });
}

/** The `run-finished` event: the tally of the task file as it is, the stories left parked, the questions left open. */
export function announceFinish(
  ctx: RunContext,
  prd: Prd,
  state: RunState,
  end: {
    reason: StopReason;
    exitCode: ExitCode;
    message: string;
    iterations: number;
    questions?: readonly OpenQuestionNote[];
  },
): void {
  const done = (id: string) => prd.stories.some((s) => s.id === id && s.status === 'done');
  const parked = Object.entries(state.stories).flatMap(([id, s]) => (s.parked && !done(id) ? [id] : []));
  const { questions, ...rest } = end;
  ctx.emit({
    type: 'run-finished',
    ...rest,
    ...(questions && questions.length > 0 ? { questions: [...questions] } : {}),
    passed: prd.stories.filter((s) => s.status === 'done').length,
    total: prd.stories.length,
    parked,
    costUsd: state.totals.costUsd,
    iterationsInAll: state.totals.iterations,
  });
}

/**
 * The run's iteration limit as steered while it runs (the TUI's +/-): read
 * before each pick; a change is applied to the context and announced once.
 */
export function iterationLimit(
  ctx: RunContext,
  limits: { baseMaxIterations: number; maxIterations: number },
) {
  let current = limits.maxIterations;
  return (): number => {
    const steered = ctx.steering?.maxIterations ?? limits.baseMaxIterations;
    if (steered !== current) {
      current = steered;
      ctx.limits = { ...ctx.limits, maxIterations: current };
      ctx.emit({ type: 'max-iterations-changed', maxIterations: current });
    }
    return current;
  };
}

/** The limits the decision core weighs for a story run: `-n` as it stands now, the run's and each story's budget. */
export function decisionLimits(ctx: RunContext, maxIterations: number): StoryRunView['limits'] {
  const { maxCostUsd, maxCostPerStoryUsd } = ctx.limits;
  return {
    maxIterations,
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    ...(maxCostPerStoryUsd !== undefined ? { maxCostPerStoryUsd } : {}),
  };
}
