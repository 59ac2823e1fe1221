import { shorten, type ValidationIssue } from '../core/validation-issue.js';
import { type FieldsComment, findFieldsComment } from './fields-comment.js';
import { readsAsStoryField } from './md-field-values.js';
import {
  fencedLines,
  fieldOf,
  headingOf,
  isCriteriaLabel,
  isThematicBreak,
  storyFieldOf,
} from './md-lines.js';
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
  /** The checkboxes of its sub-list, ticked with it when the story is done (as Chief ticks every box). */
  nested?: { line: number; markIndex: number; checked: boolean }[];
}

export interface ScannedStory {
  id: string;
  title: string;
  /** 0-based line index of the story's heading. */
  heading: number;
  /** Index of the line after the story's text (a `---` or the next heading ends it). */
  end: number;
  /** 2, 3 or 4 (`##`, `###`, `####`). */
  level: number;
  status?: ScannedField;
  priority?: ScannedField;
  description?: string;
  dependsOn?: ScannedField;
  notes?: string;
  /** Unlabelled text in the story (implementation notes, a code block, ...): part of its description. */
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
  /** The text outside the title, intro and stories, verbatim. */
  sections: ScannedSection[];
  fieldsComment?: FieldsComment;
  issues: ValidationIssue[];
}

export interface ScannedSection {
  markdown: string;
  /** The story it comes right before; none: after the last story. */
  beforeStory?: string;
  /** Text above the document's `# Title`. */
  beforeTitle?: true;
}

interface Heading {
  index: number;
  level: number;
  text: string;
  story: StoryHeading | undefined;
}

const isStoriesTitle = (text: string): boolean => /\bstories\b|\buser stor(?:y|ies)\b/i.test(text);
const isCriteriaHeading = (text: string): boolean => /^acceptance criteria\b/i.test(text);

/**
 * Finds the structure of a Chief / ralph-tui / snarktank prd.md in one pass
 * over its lines: the `# Title` (without a leading `PRD:`), the intro, and
 * every story heading at `##`, `###` or `####` with its fields and
 * checkboxes.
 *
 * A heading is a story when it starts with an id. `PREFIX-123` (`US-001`,
 * `FEAT-2.1`) and `Feature 1.1` are ids anywhere (outside the stories
 * section of a file that has one, only with criteria or story fields under
 * them: `### DD-1: Should ...?` in a Design Decisions section is a
 * question, and a warning says so); other tokens with a digit
 * (`1.2`, `T1`) inside a `## ... Stories` section (or, in a file without
 * one, at `###`/`####`); a word (`AUTH:`) inside that section when a story
 * follows it. A story runs to the next story heading or the next heading of
 * its own level or higher, or to a thematic break (`---`), so `### Phase 1:
 * Core` or `### Design System` between stories only groups them. What is
 * neither title, intro nor story comes back as the document's sections, in
 * order. Nothing that looks like a story is
 * dropped quietly: a heading with story fields but no id, a story heading
 * at another level, or a heading in the stories section that mentions an
 * id no story has is reported with its line.
 */
export function scanPrdMd(text: string, file: string): PrdMdScan {
  const lines = text.split(/\r?\n/);
  const fenced = fencedLines(lines);
  const comment = findFieldsComment(lines, fenced);
  // The fields comment is read on its own; to everything else its lines are blank.
  const read = comment ? lines.map((line, i) => (i >= comment.start && i < comment.end ? '' : line)) : lines;
  const headings: Heading[] = [];
  read.forEach((line, index) => {
    const h = fenced[index] ? undefined : headingOf(line);
    if (h) headings.push({ ...h, index, story: h.level > 1 ? storyHeadingOf(h.text) : undefined });
  });
  const scan: PrdMdScan = {
    stories: [],
    sections: [],
    issues: [],
    ...(comment ? { fieldsComment: comment } : {}),
  };
  const issue = (line: number, message: string, severity: ValidationIssue['severity'] = 'error'): void => {
    scan.issues.push({ file, line: line + 1, column: 1, message, severity });
  };
  const bodyEnd = (k: number): number => headings[k + 1]?.index ?? read.length;
  /** The end of heading k's section: the next heading of its level or higher. */
  const sectionEnd = (k: number): number => {
    const level = headings[k]?.level ?? 1;
    for (let j = k + 1; j < headings.length; j++) {
      const h = headings[j];
      if (h && h.level <= level) return h.index;
    }
    return read.length;
  };

  const titleAt = headings.findIndex((h) => h.level === 1);
  const title = headings[titleAt];
  const covered = new Array<boolean>(read.length).fill(false);
  if (comment) covered.fill(true, comment.start, comment.end);
  if (title) {
    scan.title = title.text.replace(/^PRD:\s*/i, '').trim();
    readIntro(read, title.index + 1, bodyEnd(titleAt), scan);
    covered.fill(true, title.index, bodyEnd(titleAt));
  }

  /** Whether the text from heading k to `end` carries story fields, or (with `checkboxes`) criteria. */
  const looksLikeStory = (k: number, checkboxes: boolean, end = bodyEnd(k)): boolean => {
    for (let i = (headings[k]?.index ?? 0) + 1; i < end; i++) {
      if (fenced[i]) continue;
      const line = read[i] ?? '';
      const field = storyFieldOf(line);
      if (field && readsAsStoryField(field)) return true;
      if (!checkboxes) continue;
      if (/^\s*[-*+]\s+\[[ xX]\]/.test(line) || isCriteriaLabel(line)) return true;
      if (field?.name === 'acceptance criteria' || isCriteriaHeading(headingOf(line)?.text ?? ''))
        return true;
    }
    return false;
  };

  let inSection = false;
  const sectionHeading = headings.find((h, k) => k !== titleAt && h.level <= 2 && isStoriesTitle(h.text));
  const isStoryHeading = (h: Heading, k: number): boolean => {
    if (k === titleAt || !h.story || h.level < 2 || h.level > 4) return false;
    switch (h.story.kind) {
      case 'strong':
        if (inSection || !sectionHeading || looksLikeStory(k, true, sectionEnd(k))) return true;
        noteOutside(h);
        return false;
      case 'weak':
        return inSection || (!sectionHeading && h.level >= 3);
      case 'word':
        return inSection && looksLikeStory(k, true);
    }
  };
  /** An id heading outside the stories section with nothing of a story under it (a design decision `DD-1`). */
  const noteOutside = (h: Heading): void => {
    const shown = shorten(`${'#'.repeat(h.level)} ${h.text}`);
    issue(
      h.index,
      `"${shown}" is outside the "${shorten(sectionHeading?.text ?? '')}" section and has no criteria or story fields: not read as a story`,
      'warning',
    );
  };
  let current: ScannedStory | undefined;
  const close = (end: number): void => {
    if (current) {
      current.end = readStoryBody(current, read, fenced, current.heading + 1, end);
      covered.fill(true, current.heading, current.end);
      scan.stories.push(current);
    }
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
      current = { id, title, level: h.level, heading: h.index, end: h.index + 1, prose: '', criteria: [] };
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
  // ralph-tui's `[PRD]` ... `[/PRD]` wrapper: its closing line ends the last story, it is not the story's text.
  close(wrapperClose(read, fenced, title?.index) ?? read.length);

  read.forEach((line, index) => {
    const squeezed = fenced[index] ? undefined : squeezedStoryHeading(line);
    if (squeezed) {
      issue(
        index,
        `"${shorten(line.trim())}" looks like a story heading but is not one (no space after the #): write it as "${shorten(squeezed)}"`,
      );
    }
  });

  const known = new Set(scan.stories.map((s) => s.id));
  for (const { line, ids } of mentions) {
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) {
      issue(
        line,
        `heading "${shorten(read[line]?.trim() ?? '')}" names ${shorten(missing.join(', '))} but is not a story heading: write it as "### ${shorten(missing[0] ?? '')}: Title"`,
      );
    }
  }
  if (scan.description === undefined) readIntroduction(read, headings, scan);
  scan.sections = documentSections(read, covered, scan.stories, title?.index);
  scan.issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return scan;
}

/**
 * The line of the `[/PRD]` that closes ralph-tui's wrapper, when a `[PRD]`
 * line above the title opens it; undefined otherwise.
 */
function wrapperClose(
  lines: readonly string[],
  fenced: readonly boolean[],
  titleLine: number | undefined,
): number | undefined {
  const marker = (i: number, text: string): boolean => !fenced[i] && lines[i]?.trim() === text;
  const opened = titleLine !== undefined && lines.slice(0, titleLine).some((_, i) => marker(i, '[PRD]'));
  if (!opened) return undefined;
  for (let i = lines.length - 1; i > (titleLine ?? 0); i--) if (marker(i, '[/PRD]')) return i;
  return undefined;
}

/**
 * `###US-004: Title`: without the space markdown reads a paragraph, and the
 * line would fold into the story above it. The heading it was meant to be,
 * when the text after the #s names a story id.
 */
function squeezedStoryHeading(line: string): string | undefined {
  const match = /^ {0,3}(#{2,6})([^\s#].*)$/.exec(line);
  if (!match?.[1] || !match[2]) return undefined;
  return storyHeadingOf(match[2])?.kind === 'strong' ? `${match[1]} ${match[2].trim()}` : undefined;
}

/** Text that only frames the stories: blank lines, thematic breaks, the stories section's own heading. */
function isFraming(line: string): boolean {
  if (line.trim() === '' || isThematicBreak(line)) return true;
  const h = headingOf(line);
  return h !== undefined && h.level <= 2 && isStoriesTitle(h.text);
}

/**
 * The lines no title, intro, story or fields comment took, in runs: each
 * run before the story it precedes, the last after all of them. A run of
 * framing alone (the `---` between stories, a bare `## User Stories`) is
 * no section; a writer puts it back itself.
 */
function documentSections(
  lines: readonly string[],
  covered: readonly boolean[],
  stories: readonly ScannedStory[],
  titleLine: number | undefined,
): ScannedSection[] {
  const sections: ScannedSection[] = [];
  let run: string[] = [];
  const flush = (beforeStory: string | undefined): void => {
    const text = run.join('\n').trim();
    if (!run.every(isFraming)) sections.push({ markdown: text, ...(beforeStory ? { beforeStory } : {}) });
    run = [];
  };
  let next = 0;
  lines.forEach((line, i) => {
    // Text above the title (ralph-tui's `[PRD]`) is a section of its own, written back above the title.
    if (i === titleLine && next === 0) {
      const text = run.join('\n').trim();
      if (text !== '') sections.push({ markdown: text, beforeTitle: true });
      run = [];
    }
    const story = stories[next];
    if (story && i === story.heading) {
      flush(story.id);
      next++;
    }
    // A run the title and intro interrupt goes on after them, a blank line between.
    if (covered[i]) {
      if (run.length > 0 && run[run.length - 1] !== '') run.push('');
    } else {
      run.push(line);
    }
  });
  flush(undefined);
  return sections;
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
