import {
  checkboxOf,
  dedent,
  headingOf,
  indentOf,
  isCriteriaLabel,
  isThematicBreak,
  listItemOf,
  type MdField,
  storyFieldOf,
} from './md-lines.js';
import type { ScannedCriterion, ScannedStory } from './scan-prd-md.js';

type Mode = 'none' | 'description' | 'notes' | 'criteria';

const KNOWN_FIELDS = new Set([
  'status',
  'priority',
  'description',
  'depends on',
  'notes',
  'acceptance criteria',
]);

/** The criterion that more indented lines belong to. */
interface OpenCriterion {
  criterion: ScannedCriterion;
  /** Indent of its bullet: a line indented further belongs to it. */
  indent: number;
  /** Whether a sub-list (or a block after a blank line) has started: from then on lines are kept as written. */
  block: boolean;
  /** A blank line was seen; it is kept only if the criterion goes on. */
  blank: boolean;
}

/**
 * Reads the lines `[start, end)` under a story heading: `**Status:**`,
 * `**Priority:**`, `**Description:**` (continued on the following lines),
 * `**Depends on:**`, `**Notes:**`, and the acceptance criteria: checkboxes
 * anywhere, plain or numbered list items under an "Acceptance Criteria"
 * label or heading. A line indented under a criterion belongs to it: a
 * wrapped line continues its text, and a sub-list (plain, numbered or
 * checkboxes) stays with it as written, so one criterion with eleven
 * sub-bullets is one criterion, as Chief reads it. A thematic break (`---`)
 * ends the story's text; what follows it up to the next heading is the
 * document's, not the story's. Returns the index where the story's text
 * ends.
 */
export function readStoryBody(
  story: ScannedStory,
  lines: readonly string[],
  fenced: readonly boolean[],
  start: number,
  end: number,
): number {
  const description: string[] = [];
  const notes: string[] = [];
  const prose: string[] = [];
  let mode: Mode = 'none';
  let open: OpenCriterion | undefined;

  /** Whether the line belongs to the open criterion, which then takes it. */
  const continuesCriterion = (line: string, index: number): boolean => {
    if (!open || indentOf(line) <= open.indent) return false;
    const { criterion } = open;
    const nested = checkboxOf(line) !== undefined || listItemOf(line) !== undefined || fenced[index] === true;
    if (open.block || open.blank || nested) {
      criterion.text = `${criterion.text}${open.blank ? '\n' : ''}\n${dedent(line, open.indent)}`;
      open.block = true;
      const box = fenced[index] ? undefined : checkboxOf(line);
      if (box) {
        criterion.nested ??= [];
        criterion.nested.push({ line: index, markIndex: box.markIndex, checked: box.checked });
      }
    } else {
      criterion.text = `${criterion.text} ${line.trim()}`.trim();
    }
    open.blank = false;
    return true;
  };

  let index = start;
  for (; index < end; index++) {
    const line = lines[index] ?? '';
    if (line.trim() === '') {
      if (mode === 'description' || mode === 'notes') mode = 'none';
      if (mode === 'none') prose.push(line);
      if (open) open.blank = true;
      continue;
    }
    if (continuesCriterion(line, index)) continue;
    open = undefined;
    if (fenced[index]) {
      (mode === 'description' ? description : prose).push(line);
      continue;
    }
    if (isThematicBreak(line)) break;
    const field = storyFieldOf(line);
    const checkbox = checkboxOf(line);
    const item = mode === 'criteria' && !checkbox ? listItemOf(line) : undefined;
    if (field && KNOWN_FIELDS.has(field.name)) {
      mode = applyField(story, field, index, description, notes);
    } else if (checkbox) {
      const criterion = {
        text: checkbox.text,
        checked: checkbox.checked,
        line: index,
        markIndex: checkbox.markIndex,
      };
      story.criteria.push(criterion);
      open = { criterion, indent: indentOf(line), block: false, blank: false };
      if (mode !== 'criteria') mode = 'none';
    } else if (item !== undefined) {
      const criterion = { text: item, checked: undefined, line: index };
      story.criteria.push(criterion);
      open = { criterion, indent: indentOf(line), block: false, blank: false };
    } else if (isCriteriaLabel(line) || /^acceptance criteria\b/i.test(headingOf(line)?.text ?? '')) {
      mode = 'criteria';
    } else if (mode === 'description') {
      description.push(line.trim());
    } else if (mode === 'notes') {
      notes.push(line.trim());
    } else {
      mode = 'none';
      prose.push(line);
    }
  }

  if (story.description !== undefined) story.description = description.join('\n').trim();
  if (story.notes !== undefined) story.notes = notes.join('\n').trim();
  story.prose = prose.join('\n').trim();
  return index;
}

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
