import type { ValidationIssue } from '../core/validation-issue.js';
import { checkboxOf, fencedLines, fieldOf, headingOf, listItemOf, type MdField } from './md-lines.js';

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
  /** 0-based line index of the `### ` heading. */
  heading: number;
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
  branchName?: string;
  stories: ScannedStory[];
  issues: ValidationIssue[];
}

/** Outside a Stories section an id needs a digit, so `### Goals: ...` is not taken for a story. */
const STORY_HEADING = /^([A-Za-z0-9][\w.-]*\d[\w.-]*|\d+)\s*:\s*(.*)$/;
const ANY_ID_HEADING = /^([^\s:]+)\s*:\s*(.*)$/;
const STORY_FIELDS = new Set(['status', 'priority', 'depends on']);
const FIELD_ALIASES: Record<string, string> = {
  dependencies: 'depends on',
  depends: 'depends on',
  note: 'notes',
};

/**
 * Finds the structure of a Chief-style prd.md: the `# Title`, the intro, and
 * each `### ID: Title` story with its fields and checkboxes. When a
 * `## ... Stories` section exists only headings inside it are stories;
 * otherwise every `###` heading with an id is.
 */
export function scanPrdMd(text: string, file: string): PrdMdScan {
  const lines = text.split(/\r?\n/);
  const fenced = fencedLines(lines);
  const headings = lines.flatMap((line, index) => {
    const h = fenced[index] ? undefined : headingOf(line);
    return h ? [{ ...h, index }] : [];
  });
  const scan: PrdMdScan = { stories: [], issues: [] };

  const h1 = headings.find((h) => h.level === 1);
  if (h1) {
    scan.title = h1.text;
    const next = headings.find((h) => h.index > h1.index);
    readIntro(lines.slice(h1.index + 1, next?.index ?? lines.length), scan);
  }

  const storySections = headings.filter((h) => h.level === 2 && /\bstories\b/i.test(h.text));
  const inStorySection = (index: number): boolean =>
    storySections.some((s) => {
      const end = headings.find((h) => h.index > s.index && h.level <= 2);
      return index > s.index && index < (end?.index ?? lines.length);
    });

  headings.forEach((h, i) => {
    if (h.level !== 3) return;
    const end = headings.slice(i + 1).find((n) => n.level <= 3)?.index ?? lines.length;
    const body = lines.slice(h.index + 1, end);
    const strict = storySections.length > 0 && inStorySection(h.index);
    const m = STORY_HEADING.exec(h.text) ?? (strict ? ANY_ID_HEADING.exec(h.text) : null);
    if (m?.[1]) {
      scan.stories.push(readStory(m[1], (m[2] ?? '').trim(), h.index, body, fenced.slice(h.index + 1, end)));
      return;
    }
    const looksLikeStory = body.some((line) => STORY_FIELDS.has(normalise(fieldOf(line))?.name ?? ''));
    if (strict || looksLikeStory) {
      scan.issues.push({
        file,
        line: h.index + 1,
        column: 1,
        message: `story heading without an id: expected "### US-001: Title", found "### ${h.text}"`,
        severity: 'error',
      });
    }
  });
  return scan;
}

function normalise(field: MdField | undefined): MdField | undefined {
  if (!field) return undefined;
  return { ...field, name: FIELD_ALIASES[field.name] ?? field.name };
}

function readIntro(lines: readonly string[], scan: PrdMdScan): void {
  const kept: string[] = [];
  for (const line of lines) {
    const field = fieldOf(line);
    if (field?.name === 'branch') scan.branchName = field.value.replace(/`/g, '').trim();
    else kept.push(line);
  }
  const description = kept.join('\n').trim();
  if (description !== '') scan.description = description;
}

type Mode = 'none' | 'description' | 'notes' | 'criteria';

function readStory(
  id: string,
  title: string,
  heading: number,
  body: readonly string[],
  fenced: readonly boolean[],
): ScannedStory {
  const story: ScannedStory = { id, title, heading, prose: '', criteria: [] };
  const description: string[] = [];
  const notes: string[] = [];
  const prose: string[] = [];
  let mode: Mode = 'none';

  body.forEach((line, offset) => {
    const index = heading + 1 + offset;
    if (fenced[offset]) {
      if (mode === 'description') description.push(line);
      else prose.push(line);
      return;
    }
    const field = normalise(fieldOf(line));
    const checkbox = checkboxOf(line);
    if (line.trim() === '') {
      if (mode === 'description' || mode === 'notes') mode = 'none';
      if (mode === 'none') prose.push(line);
    } else if (field && isKnownField(field.name)) {
      mode = applyField(story, field, index, description, notes);
    } else if (checkbox) {
      story.criteria.push({
        text: checkbox.text,
        checked: checkbox.checked,
        line: index,
        markIndex: checkbox.markIndex,
      });
      if (mode !== 'criteria') mode = 'none';
    } else if (mode === 'criteria' && listItemOf(line) !== undefined) {
      story.criteria.push({ text: listItemOf(line) ?? '', checked: undefined, line: index });
    } else if (/acceptance criteria/i.test(headingOf(line)?.text ?? '')) {
      mode = 'criteria';
    } else if (mode === 'description') {
      description.push(line.trim());
    } else if (mode === 'notes') {
      notes.push(line.trim());
    } else {
      mode = 'none';
      prose.push(line);
    }
  });

  if (story.description !== undefined) story.description = description.join('\n').trim();
  if (story.notes !== undefined) story.notes = notes.join('\n').trim();
  story.prose = prose.join('\n').trim();
  return story;
}

const KNOWN_FIELDS = new Set([
  'status',
  'priority',
  'description',
  'depends on',
  'notes',
  'acceptance criteria',
]);
const isKnownField = (name: string): boolean => KNOWN_FIELDS.has(name);

function applyField(
  story: ScannedStory,
  field: MdField,
  line: number,
  description: string[],
  notes: string[],
): Mode {
  const scanned = { value: field.value.trim(), line, valueIndex: field.valueIndex };
  switch (field.name) {
    case 'status':
      story.status ??= scanned;
      return 'none';
    case 'priority':
      story.priority ??= scanned;
      return 'none';
    case 'depends on':
      story.dependsOn ??= scanned;
      return 'none';
    case 'description':
      story.description = '';
      description.push(field.value.trim());
      return 'description';
    case 'notes':
      story.notes = '';
      notes.push(field.value.trim());
      return 'notes';
    default:
      return 'criteria';
  }
}
