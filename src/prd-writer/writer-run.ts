/** What `ralph new` and `ralph edit` share: the agent session in either mode, and the outcome. */
import path from 'node:path';
import type { AgentSetup } from '../agents/adapter.js';
import type { AgentEvent } from '../agents/agent-event.js';
import type { Prd } from '../core/types.js';
import type { ValidationIssue } from '../core/validation-issue.js';
import { agentTimeLimits } from '../run/run-limits.js';
import { writeTextAtomic } from '../sources/read-text.js';
import type { Config } from '../state/config.js';
import { readTextOrNull } from '../state/fs-util.js';
import type { DraftCheck, RestoredStatus } from './draft-check.js';
import { runHeadless } from './headless.js';
import { interactiveArgs, runInteractiveSession, type SessionEnd } from './interactive.js';
import { loadWriterTemplate } from './prompt-files.js';
import { type WriteResult, writeWithRepair } from './write-with-repair.js';

export interface WriterRun {
  root: string;
  config: Config;
  setup: AgentSetup;
  /** The user's description of the feature or the change (context words, or the text of `--from`). */
  request: string;
  /** The agent's interactive mode in this terminal, or one unattended run (`--from`). */
  interactive: boolean;
  onEvent?: (event: WriterEvent) => void;
  /** Stops an unattended run (Ctrl-C). */
  signal?: AbortSignal;
}

export type WriterEvent =
  | { type: 'session-started'; interactive: boolean; attempt: number }
  | { type: 'session-ended'; end: SessionEnd }
  | { type: 'agent-event'; event: AgentEvent }
  | { type: 'rejected'; attempt: number; issues: readonly ValidationIssue[] };

export type WriterOutcome =
  | {
      kind: 'written';
      /** The PRD file, relative to the project root. */
      path: string;
      prd: Prd;
      warnings: ValidationIssue[];
      restored: RestoredStatus[];
      added: string[];
      removed: string[];
      /** An edit that left the file as it was. */
      unchanged: boolean;
    }
  | {
      kind: 'invalid';
      path: string;
      issues: ValidationIssue[];
      /** No file was written at all. */
      missing: boolean;
      /** Where the rejected text was left for the user, if it was. */
      kept?: string;
    }
  | { kind: 'agent-failed'; path: string; reason: string };

/** The PRD file as the agent and the messages name it: relative to the project root. */
export const displayPath = (root: string, file: string): string =>
  path.relative(root, file).split(path.sep).join('/');

export interface DraftTarget {
  /** Absolute path of the prd.md. */
  file: string;
  /** Folder for the raw agent streams. */
  runDir: string;
  check(text: string | null): DraftCheck;
}

/** Runs the agent's interactive mode; the caller checks the file afterwards. */
export async function runSession(run: WriterRun, instructions: string, kickoff: string): Promise<void> {
  const args = interactiveArgs(run.setup.adapter.name, {
    instructions,
    kickoff,
    ...(run.setup.model ? { model: run.setup.model } : {}),
  });
  run.onEvent?.({ type: 'session-started', interactive: true, attempt: 1 });
  const end = await runInteractiveSession(run.setup.binaryPath, args, { cwd: run.root, env: run.setup.env });
  run.onEvent?.({ type: 'session-ended', end });
}

/** Unattended writing with one repair run; leaves the file as the agent left it. */
export async function runOneShot(run: WriterRun, task: string, target: DraftTarget): Promise<WriteResult> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return writeWithRepair({
    task,
    repairTemplate: await loadWriterTemplate(run.root, 'prd-repair'),
    prdPath: displayPath(run.root, target.file),
    run: (prompt, attempt) => {
      run.onEvent?.({ type: 'session-started', interactive: false, attempt });
      return runHeadless({
        setup: run.setup,
        cwd: run.root,
        prompt,
        rawLogPath: path.join(target.runDir, 'prd-writer', `${stamp}-${attempt}.jsonl`),
        ...agentTimeLimits(run.config),
        ...(run.signal ? { signal: run.signal } : {}),
        onEvent: (event) => run.onEvent?.({ type: 'agent-event', event }),
      });
    },
    readDraft: () => readTextOrNull(target.file),
    check: target.check,
    onRejected: (attempt, issues) => run.onEvent?.({ type: 'rejected', attempt, issues }),
  });
}

/** Saves an accepted draft (with ralph's statuses) and describes it. */
export async function acceptDraft(
  run: WriterRun,
  file: string,
  check: Extract<DraftCheck, { ok: true }>,
  before: string | null,
): Promise<WriterOutcome> {
  const onDisk = await readTextOrNull(file);
  if (onDisk !== check.text) await writeTextAtomic(file, check.text);
  return {
    kind: 'written',
    path: displayPath(run.root, file),
    prd: check.prd,
    warnings: check.warnings,
    restored: check.restored,
    added: check.comparison.added,
    removed: check.comparison.removed,
    unchanged: before !== null && check.text === before,
  };
}
