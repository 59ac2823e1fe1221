/**
 * The JSON result protocol of goal mode (seed 004): the agent ends its final
 * message with a fenced ```json block saying whether to continue, that the
 * goal is complete, or that it needs a human. Read only from the agent's own
 * assistant text, never from tool output or the prompt.
 */
import { z } from 'zod';
import { GOAL_RESULT_STATUSES, type GoalResult } from './goal-types.js';
import { formatPath } from './validation-issue.js';

const NonEmpty = z.string().trim().min(1, 'must not be empty');

// Agents write `null` for fields that do not apply to their status; that means "absent".
const GoalResultSchema = z
  .object({
    status: z.enum(GOAL_RESULT_STATUSES),
    summary: NonEmpty,
    completedStepIds: z
      .array(NonEmpty)
      .nullish()
      .transform((v) => v ?? []),
    pendingSteps: z
      .array(z.object({ id: NonEmpty.nullable(), prompt: NonEmpty }))
      .nullish()
      .transform((v) => v ?? []),
    goalCompleteSummary: z.string().trim().nullish(),
    humanNeeded: z.object({ reason: NonEmpty, details: z.string().trim() }).nullish(),
  })
  .superRefine((result, ctx) => {
    if (result.status === 'goal-complete' && !result.goalCompleteSummary) {
      ctx.addIssue({
        code: 'custom',
        path: ['goalCompleteSummary'],
        message: 'required when status is "goal-complete"',
      });
    }
    if (result.status === 'needs-human' && !result.humanNeeded) {
      ctx.addIssue({
        code: 'custom',
        path: ['humanNeeded'],
        message: 'required when status is "needs-human": {"reason": "...", "details": "..."}',
      });
    }
  });

export type GoalResultParse = { ok: true; result: GoalResult } | { ok: false; error: string };

/**
 * Finds and validates the result in the agent's assistant text blocks, in
 * order. The block comes from the last text that has a ```json fence; if that
 * text has several, the last one that looks like a result (has `status`).
 */
export function parseGoalResult(texts: readonly string[]): GoalResultParse {
  const blocks = [...texts]
    .reverse()
    .map(jsonFences)
    .find((found) => found.length > 0);
  if (blocks === undefined) {
    return { ok: false, error: 'no ```json result block was found in your final message' };
  }
  const parsed = blocks.map(tryJson);
  const chosen = parsed.findLast((p) => p.ok && isObject(p.value) && 'status' in p.value) ?? parsed.at(-1);
  if (chosen === undefined) return { ok: false, error: 'no ```json result block was found' };
  if (!chosen.ok)
    return { ok: false, error: `the \`\`\`json result block is not valid JSON: ${chosen.error}` };
  const checked = GoalResultSchema.safeParse(chosen.value);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => {
      const path = formatPath(issue.path);
      return `${path === '' ? 'the result' : path}: ${issue.message}`;
    });
    return { ok: false, error: `the \`\`\`json result block is not a valid result: ${problems.join('; ')}` };
  }
  const { goalCompleteSummary, humanNeeded, ...rest } = checked.data;
  return {
    ok: true,
    result: {
      ...rest,
      ...(goalCompleteSummary ? { goalCompleteSummary } : {}),
      ...(humanNeeded ? { humanNeeded } : {}),
    },
  };
}

/** The contents of every fenced block tagged `json` (``` or ~~~, any case), in order. */
export function jsonFences(text: string): string[] {
  const found: string[] = [];
  let open: { char: string; length: number; json: boolean; lines: string[] } | null = null;
  for (const line of text.split('\n')) {
    if (open) {
      const close = /^[ \t]*(`{3,}|~{3,})[ \t]*\r?$/.exec(line)?.[1];
      if (close !== undefined && close[0] === open.char && close.length >= open.length) {
        if (open.json) found.push(open.lines.join('\n'));
        open = null;
      } else {
        open.lines.push(line);
      }
      continue;
    }
    const start = /^[ \t]*(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$/.exec(line);
    if (start?.[1] !== undefined) {
      open = {
        char: start[1][0] ?? '`',
        length: start[1].length,
        json: (start[2] ?? '').toLowerCase() === 'json',
        lines: [],
      };
    }
  }
  return found;
}

type JsonAttempt = { ok: true; value: unknown } | { ok: false; error: string };

function tryJson(text: string): JsonAttempt {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
