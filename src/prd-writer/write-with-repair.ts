/**
 * One-shot writing: the agent writes the PRD unattended; a rejected file gets
 * exactly one repair run that is told what was wrong; then ralph gives up.
 * The effects (running the agent, reading the file) are passed in.
 */
import { formatIssue, type ValidationIssue } from '../core/validation-issue.js';
import type { DraftCheck } from './draft-check.js';
import type { HeadlessRun } from './headless.js';
import { renderRepairPrompt } from './prd-prompts.js';

export const MAX_WRITER_RUNS = 2;

export interface WriteWithRepairOptions {
  /** The prompt of the first run. */
  task: string;
  repairTemplate: string;
  /** The PRD's path as the agent and the messages show it. */
  prdPath: string;
  run(prompt: string, attempt: number): Promise<HeadlessRun>;
  readDraft(): Promise<string | null>;
  check(text: string | null): DraftCheck;
  onRejected?(attempt: number, issues: readonly ValidationIssue[]): void;
}

export type WriteResult =
  | { kind: 'accepted'; check: Extract<DraftCheck, { ok: true }>; runs: number }
  | { kind: 'rejected'; issues: ValidationIssue[]; missing: boolean; runs: number }
  | { kind: 'agent-failed'; reason: string; runs: number };

export async function writeWithRepair(opts: WriteWithRepairOptions): Promise<WriteResult> {
  let prompt = opts.task;
  let last: Extract<DraftCheck, { ok: false }> | undefined;
  for (let attempt = 1; attempt <= MAX_WRITER_RUNS; attempt++) {
    const run = await opts.run(prompt, attempt);
    const check = opts.check(await opts.readDraft());
    if (check.ok) return { kind: 'accepted', check, runs: attempt };
    // A crashed or refused agent is not fixed by telling it about the file; report the agent instead.
    if (run.failure !== undefined) return { kind: 'agent-failed', reason: run.failure, runs: attempt };
    opts.onRejected?.(attempt, check.issues);
    last = check;
    prompt = renderRepairPrompt(opts.repairTemplate, {
      task: opts.task,
      prdPath: opts.prdPath,
      missing: check.missing,
      problems: check.issues.map(formatIssue),
    });
  }
  return {
    kind: 'rejected',
    issues: last?.issues ?? [],
    missing: last?.missing ?? true,
    runs: MAX_WRITER_RUNS,
  };
}
