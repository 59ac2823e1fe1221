import { relative } from 'node:path';
import { liveTaskPath } from '../../app/task-context.js';
import { UsageError } from '../../core/errors.js';
import { editPrd } from '../../prd-writer/edit-prd.js';
import { displayPath, type WriterOutcome } from '../../prd-writer/writer-run.js';
import { findProjectRoot } from '../../state/project-root.js';
import { type ResolvedTarget, resolveTarget } from '../../state/resolve-target.js';
import { report, requestText, withWriter } from './new.js';
import type { PrdWriterOptions } from './prd-writer-options.js';

/** `ralph edit [name]`: the agent changes a prd.md; ralph keeps its story ids and statuses. */
export async function editCommand(name: string | undefined, opts: PrdWriterOptions): Promise<number> {
  const edit = await checkEditPrd(name);
  const request = await requestText([], opts.from);
  const { outcome, interrupted } = await editPrdWithAgent(edit, request, opts);
  return report(outcome, edit.target.name, true, interrupted);
}

export interface EditTarget {
  root: string;
  target: ResolvedTarget;
  /** The live copy of the prd.md (the worktree's while the PRD runs there). */
  file: string;
}

/** What `ralph edit` checks before any agent starts: the target is a prd.md. Throws a UsageError. */
export async function checkEditPrd(name: string | undefined): Promise<EditTarget> {
  const cwd = process.cwd();
  const root = await findProjectRoot(cwd);
  const target = await resolveTarget(root, name);
  if (target.format !== 'prd-md') {
    const shown = relative(cwd, target.taskPath) || target.taskPath;
    throw new UsageError(`ralph edit works on prd.md files; ${shown} is a ${target.format}`, [
      target.format === 'prd-json'
        ? `convert it first: ralph convert ${shown} --to md -o <dir>/prd.md (and remove the prd.json)`
        : 'edit the spec files directly',
    ]);
  }
  return { root, target, file: liveTaskPath(root, target) };
}

export function editPrdWithAgent(
  { root, target, file }: EditTarget,
  request: string,
  opts: PrdWriterOptions,
): Promise<{ outcome: WriterOutcome; interrupted: boolean }> {
  return withWriter(root, request, opts, displayPath(root, file), (run) =>
    editPrd({ name: target.name, file, runDir: target.runDir }, run),
  );
}
