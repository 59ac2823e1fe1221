import type { AgentEvent } from '../agents/agent-event.js';
import type { FailureKind } from '../core/verdict.js';
import type { HookEvent } from './hooks-types.js';
import type { OnCompleteEvent } from './on-complete.js';
import type { WorkspaceEvent } from './workspace.js';

/**
 * Everything the engine does, as one typed stream. The plain reporter, the
 * `--json` output, the TUI and `.ralph/runs/<name>/events.jsonl` all consume it.
 */
export type LoopEvent =
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
  | { type: 'recovered'; storyId: string; action: 'rolled-back' | 'completed-record' }
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
