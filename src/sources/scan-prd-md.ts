import { shorten, type ValidationIssue } from '../core/validation-issue.js';
import { fencedLines, fieldOf, headingOf, storyFieldOf } from './md-lines.js';
import { mentionedIds, type StoryHeading, storyHeadingOf } from './md-story-heading.js';
import { readStoryBody } from './scan-story-body.js';

/** A field as written, with its 0-based line index so write-back can edit it in place. */
export interface ScannedField {
  value: string;
  line: number;
  valueIndex: number;
}

export interface ScannedCriterion {
  text: string;
  /** undefined for a plain list item under "Acceptance Criteria" (nothing to tick). */
  checked: boolean | undefined;
  line: number;
  markIndex?: number;
}

export interface ScannedStory {
  id: string;
  title: string;
  /** 0-based line index of the story's heading. */
  heading: number;
  /** 2, 3 or 4 (`##`, `###`, `####`). */
  level: number;
  status?: ScannedField;
  priority?: ScannedField;
  description?: string;
  dependsOn?: ScannedField;
  notes?: string;
  /** Unlabelled text in the story, used as the description when there is no Description field. */
  prose: string;
  criteria: ScannedCriterion[];
}

export interface PrdMdScan {
  title?: string;
  description?: string;
  branch?: ScannedField;
  /** 0-based line of the `## User Stories` heading, when there is one. */
  storiesSection?: number;
  stories: ScannedStory[];
  issues: ValidationIssue[];
}

interface Heading {
  index: number;
  level: number;
  text: string;
  story: StoryHeading | undefined;
}

/** Fields only a story has: a heading followed by one of these was meant as a story. */
const STORY_FIELDS = new Set(['status', 'priority', 'depends on']);

const isStoriesTitle = (text: string): boolean => /\bstories\b|\buser stor(?:y|ies)\b/i.test(text);
const isCriteriaHeading = (text: string): boolean => /^acceptance criteria\b/i.test(text);

/**
 * Finds the structure of a Chief / ralph-tui / snarktank prd.md in one pass
 * over its lines: the `# Title` (without a leading `PRD:`), the intro, and
 * every story heading at `##`, `###` or `####` with its fields and
 * checkboxes.
 *
 * A heading is a story when it starts with an id. `PREFIX-123` (`US-001`,
 * `FEAT-2.1`) and `Feature 1.1` are ids anywhere; other tokens with a digit
 * (`1.2`, `T1`) inside a `## ... Stories` section (or, in a file without
 * one, at `###`/`####`); a word (`AUTH:`) inside that section when a story
 * follows it. A story runs to the next story heading or the next heading of
 * its own level or higher, so `### Phase 1: Core` or `### Design System`
 * between stories only groups them. Nothing that looks like a story is
 * dropped quietly: a heading with story fields but no id, a story heading
 * at another level, or a heading in the stories section that mentions an
 * id no story has is reported with its line.
 */
export function scanPrdMd(text: string, file: string): PrdMdScan {
  const lines = text.split(/\r?\n/);
  const fenced = fencedLines(lines);
  const headings: Heading[] = [];
  lines.forEach((line, index) => {
    const h = fenced[index] ? undefined : headingOf(line);
    if (h) headings.push({ ...h, index, story: h.level > 1 ? storyHeadingOf(h.text) : undefined });
  });
  const scan: PrdMdScan = { stories: [], issues: [] };
  const issue = (line: number, message: string): void => {
    scan.issues.push({ file, line: line + 1, column: 1, message, severity: 'error' });
  };
  const bodyEnd = (k: number): number => headings[k + 1]?.index ?? lines.length;

  const titleAt = headings.findIndex((h) => h.level === 1);
  const title = headings[titleAt];
  if (title) {
    scan.title = title.text.replace(/^PRD:\s*/i, '').trim();
    readIntro(lines, title.index + 1, bodyEnd(titleAt), scan);
  }

  const hasSection = headings.some((h, k) => k !== titleAt && h.level <= 2 && isStoriesTitle(h.text));
  /** Whether the text under heading k (up to the next heading) carries story fields, or checkboxes. */
  const looksLikeStory = (k: number, checkboxes: boolean): boolean => {
    for (let i = (headings[k]?.index ?? 0) + 1; i < bodyEnd(k); i++) {
      if (fenced[i]) continue;
      const line = lines[i] ?? '';
      if (STORY_FIELDS.has(storyFieldOf(line)?.name ?? '')) return true;
      if (checkboxes && /^\s*[-*+]\s+\[[ xX]\]/.test(line)) return true;
    }
    return false;
  };

  let inSection = false;
  const isStoryHeading = (h: Heading, k: number): boolean => {
    if (k === titleAt || !h.story || h.level < 2 || h.level > 4) return false;
    switch (h.story.kind) {
      case 'strong':
        return true;
      case 'weak':
        return inSection || (!hasSection && h.level >= 3);
      case 'word':
        return inSection && looksLikeStory(k, true);
    }
  };
  let current: ScannedStory | undefined;
  const close = (end: number): void => {
    if (current) scan.stories.push(readStoryBody(current, lines, fenced, current.heading + 1, end));
    current = undefined;
  };
  const mentions: { line: number; ids: string[] }[] = [];

  headings.forEach((h, k) => {
    const isStory = isStoryHeading(h, k);
    const misplaced = h.story?.kind === 'strong' && k !== titleAt && (h.level === 1 || h.level > 4);
    if (misplaced) {
      const shown = shorten(`${'#'.repeat(h.level)} ${h.text}`);
      issue(h.index, `"${shown}" is not read as a story: story headings are ##, ### or ####`);
    }
    // Deeper headings (and an Acceptance Criteria heading) belong to the story above them.
    const inStory =
      current !== undefined &&
      !isStory &&
      (h.level > current.level || (h.level === current.level && isCriteriaHeading(h.text)));
    if (inStory) return;
    close(h.index);
    if (misplaced) return;
    if (isStory && h.story) {
      const { id, title } = h.story;
      current = { id, title, level: h.level, heading: h.index, prose: '', criteria: [] };
      return;
    }
    if (k === titleAt) return;
    if (h.level <= 2) {
      inSection = isStoriesTitle(h.text);
      if (inSection) scan.storiesSection ??= h.index;
    }
    if (inSection) {
      const ids = mentionedIds(h.text);
      if (ids.length > 0) mentions.push({ line: h.index, ids });
    }
    if (looksLikeStory(k, inSection)) {
      issue(
        h.index,
        `story heading without an id: expected "### US-001: Title", found "${shorten(`${'#'.repeat(h.level)} ${h.text}`)}"`,
      );
    }
  });
  close(lines.length);

  const known = new Set(scan.stories.map((s) => s.id));
  for (const { line, ids } of mentions) {
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) {
      issue(
        line,
        `heading "${shorten(lines[line]?.trim() ?? '')}" names ${shorten(missing.join(', '))} but is not a story heading: write it as "### ${shorten(missing[0] ?? '')}: Title"`,
      );
    }
  }
  if (scan.description === undefined) readIntroduction(lines, headings, scan);
  scan.issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return scan;
}

/** Chief's fallback: with no text under the title, an `## Introduction` or `## Overview` section describes the PRD. */
function readIntroduction(lines: readonly string[], headings: readonly Heading[], scan: PrdMdScan): void {
  const k = headings.findIndex((h) => h.level === 2 && /^(introduction|overview)\b/i.test(h.text));
  const h = headings[k];
  if (!h) return;
  const end = headings[k + 1]?.index ?? lines.length;
  const text = lines
    .slice(h.index + 1, end)
    .join('\n')
    .trim();
  if (text !== '') scan.description = text;
}

/** The text between the title and the next heading: the description, and a `**Branch:**` (or ralph-tui's `> Branch:`) line. */
function readIntro(lines: readonly string[], start: number, end: number, scan: PrdMdScan): void {
  const kept: string[] = [];
  for (let i = start; i < end; i++) {
    const line = lines[i] ?? '';
    const field = fieldOf(line);
    const quoted = /^>\s*Branch:[ \t]*/i.exec(line);
    if (field?.name === 'branch') {
      scan.branch = { value: field.value.replace(/`/g, '').trim(), line: i, valueIndex: field.valueIndex };
    } else if (quoted) {
      const value = line.slice(quoted[0].length);
      scan.branch = { value: value.replace(/`/g, '').trim(), line: i, valueIndex: quoted[0].length };
    } else {
      kept.push(line);
    }
  }
  const description = kept.join('\n').trim();
  if (description !== '') scan.description = description;
}
