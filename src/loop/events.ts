import type { AgentEvent } from '../agents/agent-event.js';
import type { FailureKind } from '../core/verdict.js';
import type { HookEvent } from './hooks-types.js';
import type { OnCompleteEvent } from './on-complete.js';
import type { WorkspaceEvent } from './workspace.js';

/**
 * Everything the engine does, as one typed stream. The plain reporter, the
 * `--json` output, the TUI and `.ralph/runs/<name>/events.jsonl` all consume it.
 * A parallel run tags each event of a story with its lane (see `LaneTag`).
 */
export type LoopEvent = (
  | HookEvent
  | WorkspaceEvent
  | OnCompleteEvent
  | { type: 'changes-stashed'; sha: string; message: string; files: string[] }
  | {
      type: 'run-started';
      name: string;
      project: string;
      agent: string;
      cwd: string;
      maxIterations: number;
      remaining: number;
      resumed: boolean;
    }
  | {
      type: 'lock-taken-over';
      previousPid: number;
      host: string;
      startedAt: string;
      /** The holder was gone, its pid now runs another program, or `--force` took a lock that looked live. */
      reason: 'not-running' | 'pid-reused' | 'unreadable' | 'forced';
    }
  | {
      type: 'recovered';
      storyId: string;
      /** Parallel runs: `kept-verified` verified work left to land; `integration-reset` an unfinished landing undone; `cleaned` a finished story's worktree and branch removed. */
      action: 'rolled-back' | 'completed-record' | 'kept-verified' | 'integration-reset' | 'cleaned';
    }
  | {
      type: 'iteration-started';
      iteration: number;
      maxIterations: number;
      storyId: string;
      title: string;
      attempt: number;
      maxAttempts: number;
      headBefore: string;
    }
  | { type: 'agent-event'; iteration: number; storyId: string; event: AgentEvent }
  | {
      type: 'agent-exited';
      iteration: number;
      stopReason: string;
      exitCode: number | null;
      durationMs: number;
      stderrTail: string;
    }
  | { type: 'signal'; iteration: number; storyId: string; signal: 'done' | 'fail' | 'learn'; detail: string }
  | { type: 'check-started'; iteration: number; command: string }
  | {
      type: 'check-finished';
      iteration: number;
      command: string;
      exitCode: number;
      durationMs: number;
      outputTail: string;
    }
  | {
      type: 'story-passed';
      iteration: number;
      storyId: string;
      title: string;
      attempt: number;
      commits: { sha: string; subject: string }[];
      costUsd: number;
      durationMs: number;
    }
  | {
      type: 'attempt-failed';
      iteration: number;
      storyId: string;
      attempt: number;
      maxAttempts: number;
      kind: FailureKind;
      reason: string;
      willRetry: boolean;
    }
  | { type: 'rolled-back'; storyId: string; to: string; rescueRef?: string }
  | { type: 'story-parked'; storyId: string; attempts: number; reason: string }
  | { type: 'task-file-restored'; storyId: string; path: string }
  | {
      type: 'rate-limited';
      iteration: number;
      storyId: string;
      waitMs: number;
      resetsAt?: string;
      message: string;
    }
  | {
      type: 'usage';
      iteration: number;
      storyId: string;
      costUsd: number;
      inputTokens: number;
      outputTokens: number;
    }
  | { type: 'stop-requested'; how: 'graceful' | 'immediate' }
  | { type: 'max-iterations-changed'; maxIterations: number }
  | { type: 'agent-switched'; from: string; to: string; reason: string }
  | ParallelEvent
  | {
      type: 'run-finished';
      exitCode: number;
      reason: StopReason;
      message: string;
      passed: number;
      total: number;
      parked: string[];
      costUsd: number;
      iterations: number;
    }
) &
  LaneTag;

/**
 * Where an event of a parallel run happened: a worker (1..N) running a
 * story's attempt in the story's own checkout, or the merge queue landing
 * it. Sequential runs leave it out.
 */
export interface LaneTag {
  worker?: number | 'merge';
  storyId?: string;
}

/** What only a parallel run does: stories verified on their own branch, then landed one at a time. */
export type ParallelEvent =
  | { type: 'parallel-started'; workers: number; prdBranch: string }
  | { type: 'story-verified'; storyId: string; attempt: number; branch: string; commits: number }
  | { type: 'integration-started'; storyId: string; onto: string; queued: number }
  | {
      type: 'integration-failed';
      storyId: string;
      kind: 'conflict' | 'check-failed';
      files: string[];
      landedMeanwhile: string[];
    };

export type StopReason =
  | 'all-done'
  | 'blocked'
  | 'max-iterations'
  | 'max-cost'
  | 'interrupted'
  | 'story-not-found'
  | 'agent-unusable';

export type LoopEventSink = (event: LoopEvent) => void;
