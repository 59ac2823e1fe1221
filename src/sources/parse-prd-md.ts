import { basename, dirname } from 'node:path';
import type { Prd, Story, StoryStatus } from '../core/types.js';
import { hasErrors, type ValidationIssue } from '../core/validation-issue.js';
import { type ScannedField, type ScannedStory, scanPrdMd } from './scan-prd-md.js';
import type { ReadResult } from './task-source.js';

const STATUS_WORDS: Record<string, StoryStatus> = {
  done: 'done',
  'in-progress': 'in-progress',
  'in progress': 'in-progress',
  in_progress: 'in-progress',
  todo: 'todo',
  'to do': 'todo',
  'to-do': 'todo',
};

const plain = (value: string): string => value.replace(/[`*_]/g, '').trim();

export function parseMdStatus(value: string): StoryStatus | undefined {
  return STATUS_WORDS[plain(value).toLowerCase()];
}

/** Splits `US-001, US-002` (or `none`) into ids. */
export function parseMdDependsOn(value: string): string[] {
  const text = plain(value);
  if (/^(none|n\/a|-|—)?$/i.test(text)) return [];
  return text
    .split(/[,;\s]+/)
    .map((id) => id.trim())
    .filter((id) => id !== '');
}

/** Parses a Chief-style prd.md into the domain model. Pure: `file` is only used in messages. */
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
    issues.push({
      file,
      message: 'no stories found (expected "### US-001: Title" headings)',
      severity: 'error',
    });
  }

  const stories = scan.stories.map((s, index) => toStory(s, index + 1, file, issues));
  if (hasErrors(issues)) return { ok: false, issues };
  const prd: Prd = {
    format: 'prd-md',
    path: file,
    project,
    ...(scan.branchName ? { branchName: scan.branchName } : {}),
    ...(scan.description ? { description: scan.description } : {}),
    stories,
  };
  return { ok: true, prd, warnings: issues };
}

function toStory(s: ScannedStory, order: number, file: string, issues: ValidationIssue[]): Story {
  const fieldIssue = (field: ScannedField, message: string): void => {
    issues.push({ file, line: field.line + 1, column: field.valueIndex + 1, message, severity: 'error' });
  };
  if (s.title === '') {
    issues.push({
      file,
      line: s.heading + 1,
      column: 1,
      message: `story ${s.id} has no title`,
      severity: 'error',
    });
  }

  let status: StoryStatus = 'todo';
  if (s.status) {
    const parsed = parseMdStatus(s.status.value);
    if (parsed) status = parsed;
    else fieldIssue(s.status, `${s.id}: bad status "${s.status.value}" (expected done, in-progress or todo)`);
  }

  let priority = order;
  if (s.priority) {
    const value = plain(s.priority.value);
    if (/^-?\d+(\.\d+)?$/.test(value)) priority = Number(value);
    else fieldIssue(s.priority, `${s.id}: bad priority "${s.priority.value}" (expected a number)`);
  }

  return {
    id: s.id,
    title: s.title,
    description: s.description ?? s.prose,
    acceptanceCriteria: s.criteria.map((c) => c.text),
    priority,
    status,
    dependsOn: s.dependsOn ? parseMdDependsOn(s.dependsOn.value) : [],
    ...(s.notes !== undefined ? { notes: s.notes } : {}),
    order,
    location: { file, line: s.heading + 1, column: 1 },
  };
}
