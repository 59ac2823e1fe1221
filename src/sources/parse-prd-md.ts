import { basename, dirname } from 'node:path';
import type { Prd, Story, StoryStatus } from '../core/types.js';
import { hasErrors, shorten, type ValidationIssue } from '../core/validation-issue.js';
import { type CarriedFields, parseFieldsComment } from './fields-comment.js';
import { parseMdDependsOn, parseMdPriority, parseMdStatus } from './md-field-values.js';
import { type PrdMdScan, type ScannedField, type ScannedStory, scanPrdMd } from './scan-prd-md.js';
import type { ReadResult } from './task-source.js';

export { parseMdStatus } from './md-field-values.js';

const EXAMPLE = '"### US-001: Title" headings (## and #### work too)';

/** Parses a Chief / ralph-tui style prd.md into the domain model. Pure: `file` is only used in messages. */
export function parsePrdMd(text: string, file: string): ReadResult {
  const scan = scanPrdMd(text, file);
  const issues: ValidationIssue[] = [...scan.issues];
  let project = scan.title;
  if (project === undefined || project === '') {
    project = basename(dirname(file)) || 'prd';
    issues.push({
      file,
      line: 1,
      message: `no "# Title" heading; using "${project}" as the project name`,
      severity: 'warning',
    });
  }
  if (scan.stories.length === 0 && !hasErrors(issues)) {
    const section = scan.storiesSection;
    issues.push({
      file,
      line: section === undefined ? 1 : section + 1,
      column: 1,
      message:
        section === undefined
          ? `no stories found: expected a "## User Stories" section with ${EXAMPLE}`
          : `no stories found under this heading: expected ${EXAMPLE}`,
      severity: 'error',
    });
  }

  const carried = carriedFields(scan, file, issues);
  // Chief's rule: a story without a priority comes right after the highest one so far.
  let highest = 0;
  const stories = scan.stories.map((s, index) => {
    const story = toStory(s, index + 1, file, highest, issues);
    highest = Math.max(highest, story.priority);
    const other = carried.stories?.[story.id];
    return other && Object.keys(other).length > 0 ? { ...story, otherFields: other } : story;
  });
  const prd: Prd = {
    format: 'prd-md',
    path: file,
    project,
    ...(scan.branch
      ? {
          branchName: scan.branch.value,
          branchLocation: { file, line: scan.branch.line + 1, column: scan.branch.valueIndex + 1 },
        }
      : {}),
    ...(scan.description ? { description: scan.description } : {}),
    stories,
    ...(carried.fields && Object.keys(carried.fields).length > 0 ? { otherFields: carried.fields } : {}),
    ...(scan.sections.length > 0 ? { sections: scan.sections } : {}),
    ...(carried.json ? { jsonOriginals: carried.json } : {}),
  };
  if (hasErrors(issues)) return { ok: false, issues, partial: prd };
  return { ok: true, prd, warnings: issues };
}

function toStory(
  s: ScannedStory,
  order: number,
  file: string,
  highest: number,
  issues: ValidationIssue[],
): Story {
  const fieldIssue = (field: ScannedField, message: string): void => {
    issues.push({ file, line: field.line + 1, column: field.valueIndex + 1, message, severity: 'error' });
  };
  if (s.title === '') {
    issues.push({
      file,
      line: s.heading + 1,
      column: 1,
      message: `story ${shorten(s.id)} has no title`,
      severity: 'error',
    });
  }

  let status: StoryStatus = 'todo';
  if (s.status) {
    const parsed = parseMdStatus(s.status.value);
    if (parsed) status = parsed;
    else
      fieldIssue(
        s.status,
        `${shorten(s.id)}: bad status "${shorten(s.status.value)}" (expected done, in-progress or todo; Chief's complete, completed, passed, started and pending work too)`,
      );
  }

  let priority = highest + 1;
  if (s.priority) {
    const parsed = parseMdPriority(s.priority.value);
    if (parsed !== undefined) priority = parsed;
    else
      fieldIssue(
        s.priority,
        `${shorten(s.id)}: bad priority "${shorten(s.priority.value)}" (expected a number)`,
      );
  }

  const ticks = s.criteria.map((c) => c.checked);
  // Text beside the fields (implementation notes, a design spec, code) is part of what the story asks.
  const description = [s.description ?? '', s.prose].filter((part) => part !== '').join('\n\n');
  return {
    id: s.id,
    title: s.title,
    description,
    acceptanceCriteria: s.criteria.map((c) => c.text),
    ...(ticks.some((t) => t !== undefined) ? { checkedCriteria: ticks.map((t) => t === true) } : {}),
    priority,
    status,
    dependsOn: s.dependsOn ? parseMdDependsOn(s.dependsOn.value) : [],
    ...(s.notes !== undefined ? { notes: s.notes } : {}),
    order,
    location: { file, line: s.heading + 1, column: 1 },
  };
}

/** The fields comment's content, or nothing (with an error at its line when it cannot be read). */
function carriedFields(scan: PrdMdScan, file: string, issues: ValidationIssue[]): CarriedFields {
  if (!scan.fieldsComment) return {};
  const parsed = parseFieldsComment(scan.fieldsComment.json);
  if (parsed.ok) return parsed.value;
  issues.push({
    file,
    line: scan.fieldsComment.start + 1,
    column: 1,
    message: parsed.message,
    severity: 'error',
  });
  return {};
}
