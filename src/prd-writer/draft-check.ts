/**
 * Judging the prd.md an agent wrote: it must parse as a task file, keep the
 * identity of the stories that were there before, and it gets the statuses
 * ralph has on record, whatever the agent put. Pure: text in, verdict out.
 */
import { checkStoryQuality } from '../core/story-quality.js';
import type { Prd, StoryStatus } from '../core/types.js';
import { hasErrors, type ValidationIssue } from '../core/validation-issue.js';
import { parseMdStatus, parsePrdMd } from '../sources/parse-prd-md.js';
import { scanPrdMd } from '../sources/scan-prd-md.js';
import { withGraphIssues } from '../sources/with-graph-issues.js';
import { withPrdMdStatus } from '../sources/write-prd-md.js';
import { compareVersions, type KnownStory, type VersionComparison } from './id-guard.js';

export interface RestoredStatus {
  id: string;
  /** What the agent wrote. */
  from: StoryStatus;
  to: StoryStatus;
}

export type DraftCheck =
  | {
      ok: true;
      /** The file as it must be saved: the agent's text with the statuses put back. */
      text: string;
      prd: Prd;
      /** Format notes and story-quality advice; none of them blocks the PRD. */
      warnings: ValidationIssue[];
      comparison: VersionComparison;
      restored: RestoredStatus[];
    }
  | { ok: false; missing: boolean; issues: ValidationIssue[] };

/**
 * The stories of a prd.md as they stand, read leniently (a file that does not
 * validate still has ids, titles and statuses worth keeping).
 */
export function knownStoriesOf(text: string, file: string): KnownStory[] {
  return scanPrdMd(text, file).stories.map((s) => ({
    id: s.id,
    title: s.title,
    status: (s.status ? parseMdStatus(s.status.value) : undefined) ?? 'todo',
  }));
}

/**
 * `previous` is the PRD before an edit; for a new PRD it is empty, so every
 * story starts as todo. `text` null means the agent wrote no file.
 */
export function checkDraft(text: string | null, file: string, previous: readonly KnownStory[]): DraftCheck {
  if (text === null) {
    return {
      ok: false,
      missing: true,
      issues: [{ file, message: 'no file was written', severity: 'error' }],
    };
  }
  const parsed = withGraphIssues(parsePrdMd(text, file));
  if (!parsed.ok)
    return { ok: false, missing: false, issues: parsed.issues.filter((i) => i.severity === 'error') };

  const comparison = compareVersions(previous, parsed.prd.stories);
  if (comparison.errors.length > 0) return { ok: false, missing: false, issues: comparison.errors };

  let fixed = text;
  const restored: RestoredStatus[] = [];
  for (const story of parsed.prd.stories) {
    const wanted = comparison.statuses.get(story.id);
    if (wanted === undefined || wanted === story.status) continue;
    fixed = withPrdMdStatus(fixed, file, story.id, wanted);
    restored.push({ id: story.id, from: story.status, to: wanted });
  }
  const final = restored.length === 0 ? parsed : withGraphIssues(parsePrdMd(fixed, file));
  if (!final.ok || hasErrors(final.warnings)) {
    // Only a status changed, so this cannot happen unless the writer and the parser disagree.
    return { ok: false, missing: false, issues: final.ok ? final.warnings : final.issues };
  }
  return {
    ok: true,
    text: fixed,
    prd: final.prd,
    warnings: [...final.warnings, ...comparison.warnings, ...checkStoryQuality(final.prd.stories)],
    comparison,
    restored,
  };
}
