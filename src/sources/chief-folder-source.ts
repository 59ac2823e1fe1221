import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { StoryStatus } from '../core/types.js';
import type { ValidationIssue } from '../core/validation-issue.js';
import { type ChiefMigrationResult, migrateChiefStatuses } from './chief-migration.js';
import { parsePrdMd } from './parse-prd-md.js';
import { readText, writeTextAtomic } from './read-text.js';
import { invalidTaskFile } from './source-errors.js';
import type { ReadResult, TaskSource } from './task-source.js';
import { withGraphIssues } from './with-graph-issues.js';
import { withPrdMdStatus } from './write-prd-md.js';

/**
 * The prd.json an older Chief kept beside a `.chief/prds/<name>/prd.md`,
 * when there is one. Elsewhere a prd.json beside a prd.md is the user's own
 * (`ralph convert`'s output, say), not Chief's status file.
 */
export function chiefStatusFile(mdPath: string): string | undefined {
  const prds = dirname(dirname(mdPath));
  if (basename(mdPath) !== 'prd.md' || basename(prds) !== 'prds' || basename(dirname(prds)) !== '.chief')
    return undefined;
  const json = join(dirname(mdPath), 'prd.json');
  return existsSync(json) ? json : undefined;
}

function notice(json: string, migration: ChiefMigrationResult): ValidationIssue {
  if (!migration.ok) {
    return {
      file: json,
      severity: 'warning',
      message: `prd.json beside prd.md is an older Chief's status file, but ${migration.reason}: Chief's migration fails on it too, and the statuses are prd.md's alone`,
    };
  }
  const done = migration.migrated.filter((m) => m.status === 'done').length;
  const going = migration.migrated.length - done;
  const counts = [`${done} done`, ...(going > 0 ? [`${going} in progress`] : [])].join(', ');
  return {
    file: json,
    severity: 'warning',
    message: `prd.json beside prd.md is an older Chief's status file: its statuses (${counts}) are read into prd.md as Chief migrates them (Chief then renames it prd.json.bak; ralph leaves it as it is)`,
  };
}

/**
 * An older Chief folder: the prd.md read with the statuses of the prd.json
 * beside it, as Chief's migration will set them (chief-migration.ts), and
 * a warning that says so. A prd.md that does not parse is reported at its
 * own lines. Writing a status writes the migrated text with the new status
 * into the prd.md; the prd.json is left for the user (or Chief) to retire.
 */
export function chiefFolderSource(mdPath: string, jsonPath: string): TaskSource {
  const migrated = async (): Promise<
    { ok: true; md: string; migration: ChiefMigrationResult } | { ok: false; issue: ValidationIssue }
  > => {
    const md = await readText(mdPath);
    if (!md.ok) return md;
    const json = await readText(jsonPath);
    const migration: ChiefMigrationResult = json.ok
      ? migrateChiefStatuses(md.text, json.text)
      : { ok: false, reason: json.issue.message };
    return { ok: true, md: md.text, migration };
  };
  return {
    format: 'prd-md',
    path: mdPath,
    async read(): Promise<ReadResult> {
      const texts = await migrated();
      if (!texts.ok) return { ok: false, issues: [texts.issue] };
      // The prd.md's own problems and warnings are reported at its own lines, not at the migrated text's.
      const own = withGraphIssues(parsePrdMd(texts.md, mdPath));
      if (!own.ok) return own;
      const warnings = [notice(jsonPath, texts.migration), ...own.warnings];
      if (!texts.migration.ok) return { ...own, warnings };
      const result = withGraphIssues(parsePrdMd(texts.migration.text, mdPath));
      return result.ok ? { ...result, warnings } : result;
    },
    async setStatus(storyId: string, status: StoryStatus): Promise<void> {
      const texts = await migrated();
      if (!texts.ok) throw invalidTaskFile(mdPath, [texts.issue]);
      const base = texts.migration.ok ? texts.migration.text : texts.md;
      const next = withPrdMdStatus(base, mdPath, storyId, status);
      if (next !== texts.md) await writeTextAtomic(mdPath, next);
    },
  };
}
