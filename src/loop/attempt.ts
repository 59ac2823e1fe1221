import { relative } from 'node:path';
import { runAgent } from '../agents/run-agent.js';
import { buildStoryPrompt } from '../core/prompt.js';
import { interpretSignals, parseSignals, type Signals } from '../core/signals.js';
import type { Story } from '../core/types.js';
import { judgeAttempt, shouldRunChecks, type Verdict } from '../core/verdict.js';
import { type CommitInfo, commitsSince, headSha, statusPorcelain } from '../git/index.js';
import { iterationLogPath } from '../state/layout.js';
import { readCodebasePatterns, readProgress } from '../state/progress.js';
import type { Failure, RunState } from '../state/run-state.js';
import { addUsage, startAttempt, storyRun } from '../state/run-state-update.js';
import { collectAgentRun } from './agent-collector.js';
import { type CheckResult, runChecks } from './checks.js';
import type { AgentSetup, RunContext } from './context.js';
import { saveState } from './state-io.js';
import { isToolFile, restoreToolFiles } from './tool-files.js';

export interface AttemptResult {
  state: RunState;
  verdict: Verdict;
  story: Story;
  headBefore: string;
  commits: CommitInfo[];
  signals: Signals;
  /** The agent's last words without signal tags, for the progress file. */
  summary: string;
  durationMs: number;
  costUsd: number;
  rateLimit?: { message: string; resetsAt?: string };
}

/**
 * One iteration: record HEAD, prompt, run the agent, read its signals, run
 * the gates, and judge. Rolling back or recording the pass is the caller's.
 */
export async function runAttempt(
  ctx: RunContext,
  state: RunState,
  story: Story,
  agent: AgentSetup = ctx.agent,
): Promise<AttemptResult> {
  const headBefore = await headSha(ctx.cwd);
  if (headBefore === null) throw new Error('the repository has no commits');
  const previous = storyRun(state, story.id);
  let next = startAttempt(state, { storyId: story.id, headBefore, now: ctx.now() });
  await saveState(ctx, next);
  const iteration = next.iteration;
  const attempt = next.current?.attempt ?? previous.attempts + 1;
  ctx.emit({
    type: 'iteration-started',
    iteration,
    maxIterations: ctx.limits.maxIterations ?? 0,
    storyId: story.id,
    title: story.title,
    attempt,
    maxAttempts: ctx.limits.maxRetries,
    headBefore,
  });

  const prompt = await promptFor(ctx, story, attempt, previous.lastFailure);
  const invocation = agent.adapter.buildInvocation({
    prompt,
    ...(agent.model ? { model: agent.model } : {}),
    extraArgs: agent.extraArgs,
  });
  const collector = collectAgentRun((event) =>
    ctx.emit({ type: 'agent-event', iteration, storyId: story.id, event }),
  );
  let pidSaved: Promise<void> = Promise.resolve();
  const run = await runAgent({
    binaryPath: agent.binaryPath,
    adapter: agent.adapter,
    invocation,
    cwd: ctx.cwd,
    env: agent.env,
    timeoutMs: ctx.limits.timeoutMs,
    idleTimeoutMs: ctx.limits.idleTimeoutMs,
    signal: ctx.killSignal,
    rawLogPath: iterationLogPath(ctx.files.dir, iteration),
    onEvent: collector.onEvent,
    onSpawn: (pid) => {
      // Recorded so that a run killed with -9 can stop this agent's group on resume.
      if (next.current) {
        next = { ...next, current: { ...next.current, agentPid: pid, phase: 'agent' } };
        pidSaved = saveState(ctx, next);
      }
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

  const signals = parseSignals(collector.texts);
  for (const id of signals.done)
    ctx.emit({ type: 'signal', iteration, storyId: story.id, signal: 'done', detail: id });
  for (const f of signals.fail)
    ctx.emit({
      type: 'signal',
      iteration,
      storyId: story.id,
      signal: 'fail',
      detail: `${f.id}: ${f.reason}`,
    });
  for (const l of signals.learn)
    ctx.emit({ type: 'signal', iteration, storyId: story.id, signal: 'learn', detail: l });

  const usage = collector.usage();
  next = addUsage(next, story.id, { ...usage, durationMs: run.durationMs }, ctx.now());
  ctx.emit({ type: 'usage', iteration, storyId: story.id, ...usage });

  for (const path of await restoreToolFiles(ctx, headBefore)) {
    ctx.emit({ type: 'task-file-restored', storyId: story.id, path });
  }
  const commits = await commitsSince(ctx.cwd, headBefore);
  const dirty = (await statusPorcelain(ctx.cwd)).map((e) => e.path).filter((p) => !isToolFile(ctx, p));
  const interpretation = interpretSignals(signals, story.id);
  const agentStop = { stopReason: run.stopReason, exitCode: run.exitCode, resultOk: collector.resultOk() };
  const rateLimit = collector.rateLimit();
  const base = {
    expectedStoryId: story.id,
    signals: interpretation,
    agentStop,
    newCommits: commits,
    treeClean: dirty.length === 0,
    dirtyPaths: dirty,
    ...(rateLimit ? { rateLimited: rateLimit.resetsAt ? { resetsAt: rateLimit.resetsAt } : {} } : {}),
  };
  let checks: CheckResult[] | 'not-run' = 'not-run';
  if (shouldRunChecks(base) && ctx.config.checks.length > 0) {
    checks = await runChecks(ctx.config.checks, ctx.cwd, ctx.limits.timeoutMs, {
      signal: ctx.killSignal,
      onStart: (command) => ctx.emit({ type: 'check-started', iteration, command }),
      onFinish: (r) => ctx.emit({ type: 'check-finished', iteration, ...r }),
    });
  } else if (shouldRunChecks(base)) {
    checks = [];
  }
  const verdict = judgeAttempt({ ...base, checks });
  return {
    state: next,
    verdict,
    story,
    headBefore,
    commits,
    signals,
    summary: collector.summary(),
    durationMs: run.durationMs,
    costUsd: usage.costUsd,
    ...(rateLimit ? { rateLimit } : {}),
  };
}

async function promptFor(ctx: RunContext, story: Story, attempt: number, last?: Failure): Promise<string> {
  const progress = await readProgress(ctx.progressPath);
  const prd = await ctx.source.read();
  return buildStoryPrompt({
    template: ctx.promptTemplate,
    story,
    prd: {
      name: ctx.name,
      project: prd.ok ? prd.prd.project : ctx.name,
      ...(prd.ok && prd.prd.description ? { description: prd.prd.description } : {}),
    },
    codebasePatterns: readCodebasePatterns(progress),
    checks: ctx.config.checks,
    ...(attempt > 1 && last
      ? {
          retry: {
            attempt,
            maxAttempts: ctx.limits.maxRetries,
            reason: last.reason,
            ...(last.gateOutputTail ? { gateOutputTail: last.gateOutputTail } : {}),
          },
        }
      : {}),
    taskFilePath: relative(ctx.cwd, ctx.source.path) || ctx.source.path,
    progressFilePath: relative(ctx.cwd, ctx.progressPath) || ctx.progressPath,
  });
}
