import type { ValidationIssue } from './validation-issue.js';

/** Exit codes (contract). */
export const ExitCode = {
  Success: 0,
  WorkLeft: 1,
  Usage: 2,
  LimitReached: 3,
  /** The agent cannot authenticate or cannot be started: nothing counted, nothing parked. */
  AgentUnusable: 4,
  /** Another live run holds the lock of this PRD or goal run; nothing was changed. */
  Locked: 5,
  Interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error that ends a command; only src/cli turns it into output and an exit code. */
export class RalphError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode: ExitCode,
    readonly details: readonly string[] = [],
  ) {
    super(message);
    this.name = 'RalphError';
  }
}

export class UsageError extends RalphError {
  constructor(message: string, details: readonly string[] = []) {
    super(message, 'usage', ExitCode.Usage, details);
  }
}

/**
 * The agent cannot authenticate or cannot be started, found before a run's
 * first attempt (a missing binary, a CLI that refuses to start here, no
 * login): exit 4, as when an attempt finds it, nothing counted or parked.
 * `message` says which agent and what failed; each detail is a way to fix it.
 */
export class AgentUnusableError extends RalphError {
  constructor(
    /** The agent as named on the command line, e.g. `claude`. */
    readonly agent: string,
    readonly kind: 'auth' | 'not-startable',
    message: string,
    fix: readonly string[],
    /** `agent-missing` when its binary is not there at all. */
    code: 'agent-missing' | 'agent-unusable' = 'agent-unusable',
  ) {
    super(message, code, ExitCode.AgentUnusable, fix);
    this.name = 'AgentUnusableError';
  }

  /** How to fix it, as one clause. */
  get fix(): string {
    return this.details.join('; ');
  }
}

/** A task file or config that failed validation; nothing was changed. */
export class InvalidInputError extends RalphError {
  constructor(
    message: string,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(message, 'invalid-input', ExitCode.Usage);
  }
}

/**
 * A Node system error (`EROFS: read-only file system, unlink '/x/lock'`)
 * said as its reason and code: `read-only file system (EROFS)`. Null for
 * anything else.
 */
export function systemErrorReason(error: unknown): string | null {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') return null;
  const { code, message } = error;
  const reason = message.startsWith(`${code}: `) ? message.slice(code.length + 2) : message;
  // Node appends the call and its path (`, unlink '/x/lock'`); the sentence names them itself.
  return `${reason.replace(/, [a-z]+ '.*$/s, '')} (${code})`;
}

/** A system error as a sentence: `could not unlink /x/lock: read-only file system (EROFS)`. */
export function describeSystemError(error: unknown): string | null {
  const reason = systemErrorReason(error);
  if (reason === null || !(error instanceof Error)) return null;
  const syscall = 'syscall' in error && typeof error.syscall === 'string' ? error.syscall : null;
  const path = 'path' in error && typeof error.path === 'string' ? error.path : null;
  if (syscall === null) return reason;
  return `could not ${syscall}${path === null ? '' : ` ${path}`}: ${reason}`;
}
