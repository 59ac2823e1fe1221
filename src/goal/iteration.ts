import type { AgentSetup } from '../agents/adapter.js';
import { attemptBounds } from '../attempt/attempt-request.js';
import { runAttempt } from '../attempt/run-attempt.js';
import type { ModeSelection } from '../core/goal-mode.js';
import { type GoalVerdict, goalShape } from '../core/goal-shape.js';
import { goalQuestionId } from '../core/questions.js';
import type { CommitInfo } from '../git/index.js';
import { iterationLogPath } from '../state/layout.js';
import type { GoalContext } from './goal-context.js';
import { promptFor } from './next-iteration.js';
import { addUsage, type IterationUsage, setAgentPid, startIteration } from './progress-update.js';
import { goalToolPaths, isToolPath } from './tree.js';

/** A goal verdict, with the commits of an accepted result. */
export type IterationOutcome =
  | (Extract<GoalVerdict, { kind: 'result' }> & { commits: CommitInfo[] })
  | Exclude<GoalVerdict, { kind: 'result' }>;

export interface IterationRun {
  iteration: number;
  headBefore: string;
  transcript: string;
  outcome: IterationOutcome;
  usage: IterationUsage;
}

/**
 * One goal iteration on the attempt kernel: the goal's prompt for this mode
 * and step, its progress records and events around the kernel's steps,
 * judged by the goal shape. Applying the result, or rolling back, is the
 * caller's.
 */
export async function runGoalIteration(
  ctx: GoalContext,
  selection: ModeSelection,
  agent: AgentSetup = ctx.agent,
): Promise<IterationRun> {
  const progress = ctx.store.get();
  const iteration = progress.stats.currentIteration + 1;
  const transcript = iterationLogPath(ctx.files.dir, iteration);
  const stepId = selection.mode === 'executing' ? selection.step.id : undefined;
  const human = progress.humanNeeded;
  const answer = human ? ctx.desk.answerTo(goalQuestionId(human.iteration)) : undefined;
  let spend = { costUsd: 0, inputTokens: 0, outputTokens: 0 };
  const outcome = await runAttempt({
    cwd: ctx.cwd,
    prompt: promptFor(progress, selection, iteration, {
      template: ctx.promptTemplate,
      checks: ctx.config.checks,
      ...(ctx.goalFileInRepo !== undefined ? { goalFileInRepo: ctx.goalFileInRepo } : {}),
      ...(answer !== undefined ? { answer } : {}),
    }),
    agent,
    ...attemptBounds(ctx),
    rawLogPath: transcript,
    toolPaths: goalToolPaths(ctx),
    isToolPath: (path) => isToolPath(ctx, path),
    commitRestoredAs: 'chore(ralph): restore the goal files the agent changed',
    shape: goalShape,
    begin: async (headBefore, agentToken) => {
      await ctx.store.update((p) =>
        startIteration(p, {
          iteration,
          headBefore,
          now: ctx.now(),
          agentToken,
          mode: selection.mode,
          ...(stepId !== undefined ? { stepId } : {}),
          cwd: ctx.cwd,
        }),
      );
      ctx.emit({
        type: 'iteration-started',
        iteration,
        maxIterations: progress.stats.maxIterations,
        mode: selection.mode,
        ...(selection.mode === 'executing'
          ? { step: { id: selection.step.id, prompt: selection.step.prompt } }
          : {}),
        headBefore,
      });
    },
    spawned: (pid) => ctx.store.update((p) => setAgentPid(p, pid)),
    agentDone: async ({ usage }) => {
      spend = usage;
      await ctx.store.update((p) => addUsage(p, usage));
      ctx.emit({ type: 'usage', iteration, ...usage });
    },
    emit: (event) => {
      switch (event.type) {
        case 'agent-event':
          return ctx.emit({ type: 'agent-event', iteration, event: event.event });
        case 'tool-file-restored':
          return;
        case 'agent-silent':
          return ctx.emit({ ...event, iteration, agent: agent.adapter.name });
        default:
          return ctx.emit({ ...event, iteration });
      }
    },
  });
  const { verdict, facts } = outcome;
  return {
    iteration,
    headBefore: facts.headBefore,
    transcript,
    outcome: verdict.kind === 'result' ? { ...verdict, commits: [...facts.commits] } : verdict,
    usage: { durationMs: facts.agent.durationMs, ...spend },
  };
}
