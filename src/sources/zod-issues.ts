import type { z } from 'zod';
import { formatPath, type ValidationIssue } from '../core/validation-issue.js';

type Position = { line: number; column: number };

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value;
}

/**
 * Per-parse error map: short messages that read well after a path
 * (`userStories[3].priority: expected number, received string`).
 */
export const shortZodMessages = (issue: z.core.$ZodRawIssue): string | undefined => {
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) return `required ${issue.expected} is missing`;
    return `expected ${issue.expected}, received ${typeName(issue.input)}`;
  }
  return undefined;
};

/** Turns zod issues into validation issues, placed with `locate` when the path can be found in the source. */
export function toValidationIssues(
  issues: readonly z.core.$ZodIssue[],
  file: string,
  locate: (path: readonly (string | number)[]) => Position | undefined,
): ValidationIssue[] {
  return issues.map((issue) => {
    const path = issue.path.filter((k): k is string | number => typeof k !== 'symbol');
    const at = locate(path);
    return {
      file,
      ...(at ? { line: at.line, column: at.column } : {}),
      ...(path.length > 0 ? { path: formatPath(path) } : {}),
      message: issue.message,
      severity: 'error' as const,
    };
  });
}
