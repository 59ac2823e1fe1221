import type { AgentEvent } from '../agents/agent-event.js';
import type { GoalFailureKind } from '../core/goal-shape.js';
import type { GoalMode, GoalResultStatus, HumanNeeded } from '../core/goal-types.js';
import type { LoopEvent } from '../loop/events.js';
import type { HookEvent } from '../loop/hooks-types.js';
import type { OnCompleteEvent } from '../loop/on-complete.js';
import type { WorkspaceEvent } from '../loop/workspace.js';

export type GoalStopReason =
  | 'goal-complete'
  | 'needs-human'
  | 'failures'
  | 'max-iterations'
  | 'max-cost'
  | 'interrupted';

export type { GoalFailureKind } from '../core/goal-shape.js';

/** Engine events that mean the same in goal mode as in the PRD loop. */
type SharedEvent =
  | WorkspaceEvent
  | OnCompleteEvent
  | Extract<
      LoopEvent,
      {
        type:
          | 'lock-taken-over'
          | 'agent-exited'
          | 'check-started'
          | 'check-finished'
          | 'stop-requested'
          | 'agent-switched'
          | 'changes-stashed';
      }
    >;

/**
 * Everything the goal loop does, as one typed stream: the plain reporter,
 * `--json` and `.ralph/runs/<name>/events.jsonl` consume it.
 */
export type GoalEvent =
  | SharedEvent
  | HookEvent
  | {
      type: 'goal-started';
      name: string;
      goal: string;
      agent: string;
      cwd: string;
      resumed: boolean;
      /** Iterations already run by earlier sessions. */
      iterationsBefore: number;
      /** The last iteration this session may start. */
      maxIterations: number;
      minIterations: number;
      idleThreshold: number;
      steps: { total: number; completed: number };
    }
  | { type: 'goal-recovered'; iteration: number; to: string }
  | {
      type: 'goal-iteration-started';
      iteration: number;
      maxIterations: number;
      mode: GoalMode;
      step?: { id: string; prompt: string };
      headBefore: string;
    }
  | { type: 'goal-agent-event'; iteration: number; event: AgentEvent }
  | { type: 'goal-usage'; iteration: number; costUsd: number; inputTokens: number; outputTokens: number }
  | {
      type: 'goal-result';
      iteration: number;
      status: GoalResultStatus;
      summary: string;
      completedStepIds: string[];
      addedSteps: { id: string; prompt: string }[];
      commits: { sha: string; subject: string }[];
      steps: { total: number; completed: number };
    }
  | { type: 'goal-warning'; iteration: number; message: string }
  | { type: 'goal-complete-refused'; iteration: number; reason: string }
  | {
      type: 'goal-iteration-failed';
      iteration: number;
      kind: GoalFailureKind;
      reason: string;
      /** Failed iterations in a row, this one included. */
      consecutive: number;
      maxConsecutive: number;
    }
  | { type: 'goal-rolled-back'; iteration: number; to: string; rescueRef?: string }
  | {
      type: 'goal-rate-limited';
      iteration: number;
      waitMs: number;
      resetsAt?: string;
      message: string;
    }
  | {
      type: 'goal-finished';
      exitCode: number;
      reason: GoalStopReason;
      message: string;
      /** Iterations run in this session. */
      iterations: number;
      steps: { total: number; completed: number };
      costUsd: number;
      finalSummary?: string;
      humanNeeded?: HumanNeeded;
      progressFile: string;
    };

export type GoalEventSink = (event: GoalEvent) => void;
