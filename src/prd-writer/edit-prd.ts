/** `ralph edit`: the agent changes an existing prd.md; ralph keeps ids and statuses. */
import { readFile } from 'node:fs/promises';
import { writeTextAtomic } from '../sources/read-text.js';
import { readTextOrNull } from '../state/fs-util.js';
import { runFiles } from '../state/layout.js';
import { acquireLock } from '../state/lock.js';
import { checkDraft, knownStoriesOf } from './draft-check.js';
import { nextFreeId } from './id-guard.js';
import { renderEditPrompt } from './prd-prompts.js';
import { loadWriterTemplate } from './prompt-files.js';
import {
  acceptDraft,
  type DraftTarget,
  displayPath,
  runOneShot,
  runSession,
  type WriterOutcome,
  type WriterRun,
} from './writer-run.js';

export interface EditTarget {
  /** The PRD name (names the lock and the run folder). */
  name: string;
  /** The live prd.md: the worktree's copy while the PRD has one. */
  file: string;
  runDir: string;
}

/** Suffix of the rejected result of an interactive edit, kept beside the restored PRD. */
export const REJECTED_SUFFIX = '.rejected';

/**
 * Runs the edit under the PRD's run lock, so no loop works on the file
 * meanwhile. A result that fails validation or loses track of a story is
 * never kept as the PRD: the previous text is restored (an interactive
 * session's result is saved beside it as `prd.md.rejected`).
 */
export async function editPrd(target: EditTarget, run: WriterRun): Promise<WriterOutcome> {
  const lock = await acquireLock(runFiles(target.runDir).lock, { command: `ralph edit ${target.name}` });
  try {
    return await editLocked(target, run);
  } finally {
    await lock.release();
  }
}

async function editLocked(target: EditTarget, run: WriterRun): Promise<WriterOutcome> {
  const shown = displayPath(run.root, target.file);
  const before = await readFile(target.file, 'utf8');
  const previous = knownStoriesOf(before, shown);
  const prompt = renderEditPrompt(await loadWriterTemplate(run.root, 'prd-edit'), {
    prdPath: shown,
    request: run.request,
    interactive: run.interactive,
    checks: run.config.checks,
    stories: previous,
    nextId: nextFreeId(previous.map((s) => s.id)),
  });
  const draft: DraftTarget = {
    file: target.file,
    runDir: target.runDir,
    check: (text) => checkDraft(text, shown, previous),
  };

  if (run.interactive) {
    await runSession(run, prompt, run.request.trim() || `I want to change the PRD ${shown}.`);
    const after = await readTextOrNull(target.file);
    const check = draft.check(after);
    if (check.ok) return acceptDraft(run, target.file, check, before);
    await writeTextAtomic(target.file, before);
    if (after === null || after === before) {
      return { kind: 'invalid', path: shown, issues: check.issues, missing: after === null };
    }
    const rejected = `${target.file}${REJECTED_SUFFIX}`;
    await writeTextAtomic(rejected, after);
    return {
      kind: 'invalid',
      path: shown,
      issues: check.issues,
      missing: false,
      kept: displayPath(run.root, rejected),
    };
  }

  const result = await runOneShot(run, prompt, draft);
  if (result.kind === 'accepted') return acceptDraft(run, target.file, result.check, before);
  await writeTextAtomic(target.file, before);
  return result.kind === 'agent-failed'
    ? { kind: 'agent-failed', path: shown, reason: result.reason }
    : { kind: 'invalid', path: shown, issues: result.issues, missing: result.missing };
}
