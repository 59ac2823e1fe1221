import { checkboxOf, headingOf, indentOf, listItemOf, type MdField, storyFieldOf } from './md-lines.js';
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

/**
 * Reads the lines `[start, end)` under a story heading: `**Status:**`,
 * `**Priority:**`, `**Description:**` (continued on the following lines),
 * `**Depends on:**`, `**Notes:**`, and the acceptance criteria: checkboxes
 * anywhere, plain list items under an "Acceptance Criteria" label or
 * heading. A line indented under a criterion continues it.
 */
export function readStoryBody(
  story: ScannedStory,
  lines: readonly string[],
  fenced: readonly boolean[],
  start: number,
  end: number,
): ScannedStory {
  const description: string[] = [];
  const notes: string[] = [];
  const prose: string[] = [];
  let mode: Mode = 'none';
  /** The criterion the next indented line continues, and its bullet's indent. */
  let open: { criterion: ScannedCriterion; indent: number } | undefined;

  for (let index = start; index < end; index++) {
    const line = lines[index] ?? '';
    if (fenced[index]) {
      (mode === 'description' ? description : prose).push(line);
      open = undefined;
      continue;
    }
    if (line.trim() === '') {
      if (mode === 'description' || mode === 'notes') mode = 'none';
      if (mode === 'none') prose.push(line);
      open = undefined;
      continue;
    }
    const field = storyFieldOf(line);
    const checkbox = checkboxOf(line);
    const item = mode === 'criteria' && !checkbox ? listItemOf(line) : undefined;
    if (field && KNOWN_FIELDS.has(field.name)) {
      mode = applyField(story, field, index, description, notes);
      open = undefined;
    } else if (checkbox) {
      const criterion = {
        text: checkbox.text,
        checked: checkbox.checked,
        line: index,
        markIndex: checkbox.markIndex,
      };
      story.criteria.push(criterion);
      open = { criterion, indent: indentOf(line) };
      if (mode !== 'criteria') mode = 'none';
    } else if (item !== undefined) {
      const criterion = { text: item, checked: undefined, line: index };
      story.criteria.push(criterion);
      open = { criterion, indent: indentOf(line) };
    } else if (open && indentOf(line) > open.indent) {
      open.criterion.text = `${open.criterion.text} ${line.trim()}`.trim();
    } else if (/^acceptance criteria\b/i.test(headingOf(line)?.text ?? '')) {
      mode = 'criteria';
      open = undefined;
    } else if (mode === 'description') {
      description.push(line.trim());
    } else if (mode === 'notes') {
      notes.push(line.trim());
    } else {
      mode = 'none';
      prose.push(line);
      open = undefined;
    }
  }

  if (story.description !== undefined) story.description = description.join('\n').trim();
  if (story.notes !== undefined) story.notes = notes.join('\n').trim();
  story.prose = prose.join('\n').trim();
  return story;
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
