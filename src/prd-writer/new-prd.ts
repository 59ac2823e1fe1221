/** `ralph new`: a new PRD written by the agent, validated by ralph. */
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';
import { readTextOrNull, statOrNull } from '../state/fs-util.js';
import { prdPaths, runDir } from '../state/layout.js';
import { checkDraft } from './draft-check.js';
import { renderNewPrompt } from './prd-prompts.js';
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

/**
 * Writes `.ralph/prds/<name>/prd.md`. Refuses a name that already has a PRD.
 * Unattended, nothing is left behind unless the result is valid; after an
 * interactive session an invalid file is kept for the user to fix, and a
 * folder left empty is removed.
 */
export async function writeNewPrd(name: string, run: WriterRun): Promise<WriterOutcome> {
  const paths = prdPaths(run.root, name);
  const shown = displayPath(run.root, paths.md);
  await assertNoPrd(run.root, name);
  const createdDir = (await statOrNull(paths.dir)) === null;
  await mkdir(paths.dir, { recursive: true });

  const prompt = renderNewPrompt(await loadWriterTemplate(run.root, 'prd-new'), {
    prdPath: shown,
    request: run.request,
    interactive: run.interactive,
    checks: run.config.checks,
  });
  const target: DraftTarget = {
    file: paths.md,
    runDir: runDir(run.root, name),
    check: (text) => checkDraft(text, shown, []),
  };

  if (run.interactive) {
    const kickoff = run.request.trim() || `I want to write a new PRD, "${name}".`;
    await runSession(run, prompt, kickoff);
    const check = target.check(await readTextOrNull(paths.md));
    if (check.ok) return acceptDraft(run, paths.md, check, null);
    if (check.missing) {
      // Only an empty folder goes: anything the agent left in it stays for the user to see.
      if (createdDir) await rmdir(paths.dir).catch(() => undefined);
      return { kind: 'invalid', path: shown, issues: check.issues, missing: true };
    }
    return { kind: 'invalid', path: shown, issues: check.issues, missing: false, kept: shown };
  }

  const result = await runOneShot(run, prompt, target);
  if (result.kind === 'accepted') return acceptDraft(run, paths.md, result.check, null);
  await (createdDir ? rm(paths.dir, { recursive: true, force: true }) : rm(paths.md, { force: true }));
  return result.kind === 'agent-failed'
    ? { kind: 'agent-failed', path: shown, reason: result.reason }
    : { kind: 'invalid', path: shown, issues: result.issues, missing: result.missing };
}

/** `ralph new` never overwrites: a name that has a prd.md or prd.json is taken. */
export async function assertNoPrd(root: string, name: string): Promise<void> {
  const paths = prdPaths(root, name);
  for (const existing of [paths.md, paths.json]) {
    if (await statOrNull(existing)) {
      throw new UsageError(`a PRD named "${name}" already exists: ${displayPath(root, existing)}`, [
        `change it with \`ralph edit ${name}\`, or choose another name`,
      ]);
    }
  }
}
