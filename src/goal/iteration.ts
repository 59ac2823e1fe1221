import { runAgent } from '../agents/run-agent.js';
import type { ModeSelection } from '../core/goal-mode.js';
import { parseGoalResult } from '../core/goal-result.js';
import type { GoalResult } from '../core/goal-types.js';
import { type CommitInfo, commitsSince, headSha } from '../git/index.js';
import { collectAgentRun } from '../loop/agent-collector.js';
import { runChecks } from '../loop/checks.js';
import { iterationLogPath } from '../state/layout.js';
import type { GoalContext } from './context.js';
import type { GoalFailureKind } from './events.js';
import { promptFor } from './next-iteration.js';
import { addUsage, setAgentPid, startIteration } from './progress-update.js';
import { dirtyPaths, restoreToolFiles } from './tree.js';

export type IterationOutcome =
  | { kind: 'result'; result: GoalResult; commits: CommitInfo[] }
  | { kind: 'failed'; failure: GoalFailureKind; reason: string; outputTail?: string }
  | { kind: 'rate-limited'; message: string; resetsAt?: string }
  | { kind: 'aborted' };

export interface IterationRun {
  iteration: number;
  headBefore: string;
  transcript: string;
  outcome: IterationOutcome;
}

/**
 * One goal iteration: record HEAD, prompt a fresh agent with the goal, the
 * mode and the step, read its JSON result, and verify it (a clean tree, and
 * the gate checks when it committed or claims the goal complete). Applying
 * the result, or rolling back, is the caller's.
 */
export async function runGoalIteration(ctx: GoalContext, selection: ModeSelection): Promise<IterationRun> {
  const headBefore = await headSha(ctx.cwd);
  if (headBefore === null) throw new Error('the repository has no commits');
  const progress = ctx.store.get();
  const iteration = progress.stats.currentIteration + 1;
  await ctx.store.update((p) => startIteration(p, { iteration, headBefore, now: ctx.now() }));
  ctx.emit({
    type: 'goal-iteration-started',
    iteration,
    maxIterations: progress.stats.maxIterations,
    mode: selection.mode,
    ...(selection.mode === 'executing'
      ? { step: { id: selection.step.id, prompt: selection.step.prompt } }
      : {}),
    headBefore,
  });

  const prompt = goalPrompt(ctx, selection, iteration);
  const invocation = ctx.agent.adapter.buildInvocation({
    prompt,
    ...(ctx.agent.model ? { model: ctx.agent.model } : {}),
    extraArgs: ctx.agent.extraArgs,
  });
  const collector = collectAgentRun((event) => ctx.emit({ type: 'goal-agent-event', iteration, event }));
  const transcript = iterationLogPath(ctx.files.dir, iteration);
  let pidSaved: Promise<void> = Promise.resolve();
  const run = await runAgent({
    binaryPath: ctx.agent.binaryPath,
    adapter: ctx.agent.adapter,
    invocation,
    cwd: ctx.cwd,
    env: ctx.agent.env,
    timeoutMs: ctx.limits.timeoutMs,
    idleTimeoutMs: ctx.limits.idleTimeoutMs,
    signal: ctx.killSignal,
    rawLogPath: transcript,
    onEvent: collector.onEvent,
    // Recorded so that a run killed with -9 can stop this agent's group on resume.
    onSpawn: (pid) => {
      pidSaved = ctx.store.update((p) => setAgentPid(p, pid));
    },
  });
  await pidSaved;
  ctx.emit({
    type: 'agent-exited',
    iteration,
    stopReason: run.stopReason,
    exitCode: run.exitCode,
    durationMs: run.durationMs,
    stderrTail: run.stderr.slice(-2000),
  });
  const usage = collector.usage();
  await ctx.store.update((p) => addUsage(p, usage));
  ctx.emit({ type: 'goal-usage', iteration, ...usage });

  const done = (outcome: IterationOutcome): IterationRun => ({ iteration, headBefore, transcript, outcome });
  if (run.stopReason === 'aborted') return done({ kind: 'aborted' });
  const parsed = parseGoalResult(collector.texts);
  const rateLimit = collector.rateLimit();
  if (rateLimit && !parsed.ok) return done({ kind: 'rate-limited', ...rateLimit });

  await restoreToolFiles(ctx, headBefore);
  if (run.stopReason !== 'exited') {
    const why = {
      timeout: 'the time limit',
      idle: 'being silent too long',
      'spawn-error': 'failing to start',
    };
    return done({
      kind: 'failed',
      failure: 'agent-stopped',
      reason: `the agent was stopped for ${why[run.stopReason]}${run.stopReason === 'spawn-error' ? `: ${run.stderr.trim()}` : ''}`,
    });
  }
  if (!parsed.ok) {
    const noBlock = parsed.error.startsWith('no ');
    const agentError = collector.resultOk() === false ? ' (the agent reported an error)' : '';
    return done({
      kind: 'failed',
      failure: noBlock ? 'no-result' : 'invalid-result',
      reason: `${parsed.error}${agentError}`,
    });
  }
  const dirty = await dirtyPaths(ctx);
  if (dirty.length > 0) {
    const shown =
      dirty.slice(0, 10).join(', ') + (dirty.length > 10 ? `, and ${dirty.length - 10} more` : '');
    return done({
      kind: 'failed',
      failure: 'dirty-tree',
      reason: `it left uncommitted changes (${shown}); commit the work, and leave no stray files`,
    });
  }
  const commits = await commitsSince(ctx.cwd, headBefore);
  const wantsChecks = commits.length > 0 || parsed.result.status === 'goal-complete';
  if (wantsChecks && ctx.config.checks.length > 0) {
    const results = await runChecks(ctx.config.checks, ctx.cwd, ctx.limits.timeoutMs, {
      signal: ctx.killSignal,
      onStart: (command) => ctx.emit({ type: 'check-started', iteration, command }),
      onFinish: (r) => ctx.emit({ type: 'check-finished', iteration, ...r }),
    });
    const failed = results.find((r) => r.exitCode !== 0);
    if (failed) {
      return done({
        kind: 'failed',
        failure: 'checks-failed',
        reason: `the check \`${failed.command}\` failed (exit ${failed.exitCode})`,
        outputTail: failed.outputTail,
      });
    }
  }
  return done({ kind: 'result', result: parsed.result, commits });
}

function goalPrompt(ctx: GoalContext, selection: ModeSelection, iteration: number): string {
  return promptFor(ctx.store.get(), selection, iteration, {
    template: ctx.promptTemplate,
    checks: ctx.config.checks,
    ...(ctx.goalFileInRepo !== undefined ? { goalFileInRepo: ctx.goalFileInRepo } : {}),
  });
}
