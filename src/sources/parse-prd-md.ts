import { basename, dirname } from 'node:path';
import type { Prd, Story, StoryStatus } from '../core/types.js';
import { hasErrors, shorten, type ValidationIssue } from '../core/validation-issue.js';
import { type ScannedField, type ScannedStory, scanPrdMd } from './scan-prd-md.js';
import type { ReadResult } from './task-source.js';

/** Chief's status words (internal/prd/markdown.go), plus spelling variants. */
const STATUS_WORDS: Record<string, StoryStatus> = {
  done: 'done',
  complete: 'done',
  completed: 'done',
  passed: 'done',
  'in-progress': 'in-progress',
  'in progress': 'in-progress',
  in_progress: 'in-progress',
  started: 'in-progress',
  todo: 'todo',
  'to do': 'todo',
  'to-do': 'todo',
  pending: 'todo',
  '': 'todo',
};

const plain = (value: string): string => value.replace(/[`*_]/g, '').trim();

/** A status word, alone or followed by a remark (`done ← set by ralph`, `done (2025-01-02)`). */
const STATUS_START = /^(in[ _-]progress|to[ -]do|[a-z]+)(?=$|[\s(,;])/;

export function parseMdStatus(value: string): StoryStatus | undefined {
  const text = plain(value).toLowerCase();
  return STATUS_WORDS[text] ?? STATUS_WORDS[STATUS_START.exec(text)?.[1] ?? '-'];
}

/** `3`, `2.5`, `.5`, or ralph-tui's `P1`, alone or followed by a remark, as Chief reads it. */
export function parseMdPriority(value: string): number | undefined {
  const m = /^P?(-?(?:\d+(?:\.\d+)?|\.\d+))(?=$|[\s(,;])/i.exec(plain(value));
  return m?.[1] === undefined ? undefined : Number(m[1]);
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

  // Chief's rule: a story without a priority comes right after the highest one so far.
  let highest = 0;
  const stories = scan.stories.map((s, index) => {
    const story = toStory(s, index + 1, file, highest, issues);
    highest = Math.max(highest, story.priority);
    return story;
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
  return {
    id: s.id,
    title: s.title,
    description: s.description ?? s.prose,
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
