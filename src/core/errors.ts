import type { ValidationIssue } from './validation-issue.js';

/** Exit codes (contract). */
export const ExitCode = {
  Success: 0,
  WorkLeft: 1,
  Usage: 2,
  LimitReached: 3,
  /** The agent cannot authenticate or cannot be started: nothing counted, nothing parked. */
  AgentUnusable: 4,
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

/** A task file or config that failed validation; nothing was changed. */
export class InvalidInputError extends RalphError {
  constructor(
    message: string,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(message, 'invalid-input', ExitCode.Usage);
  }
}
