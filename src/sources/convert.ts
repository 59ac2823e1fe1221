import { boxesToBallots } from '../core/criteria-count.js';
import type { JsonOriginals, Prd, Story } from '../core/types.js';
import { fieldsCommentLines } from './fields-comment.js';
import { originalStory, originalsToCarry, originalTop } from './json-originals.js';
import { fencedLines, headingOf, indentOf } from './md-lines.js';
import { parsePrdMd } from './parse-prd-md.js';

/**
 * Deterministic conversions between the two PRD file formats. Both carry
 * the same story fields (ids, titles, descriptions, criteria with their
 * sub-lists and each criterion's tick, priorities, statuses, dependencies,
 * notes), the PRD's project, branch and description, a prd.md's other
 * sections (prd.json's `markdownSections`), and the prd.json fields
 * markdown has no place for (a comment in the prd.md, see
 * fields-comment.ts). A prd.json's objects that markdown cannot give back
 * exactly (notes with blank lines, criteria with leading spaces, empty
 * values, other spellings of a field) travel in that comment too, so json
 * -> md -> json gives back every field as it was (json-originals.ts).
 *
 * The prd.md is one Chief and ralph-tui read as ralph does: `### US-001:
 * Title` headings (`FEAT-1-1` written as ralph-tui's `Feature 1.1`),
 * `**Status:**` and `**Priority:**` lines, `- [ ]` boxes.
 */

/** A snarktank / Chief prd.json, 2-space indented, with a trailing newline. */
export function prdToJson(prd: Prd): string {
  const written = prdJsonObjects(prd);
  // Objects a prd.md carried from a prd.json come back as they were written, when the prd.md still reads them so.
  const stories = prd.stories.map(
    (story, i) => originalStory(prd.jsonOriginals, story) ?? written.stories[i],
  );
  const top = originalTop(prd.jsonOriginals, prd, stories) ?? { ...written.top, userStories: stories };
  return `${JSON.stringify(top, null, 2)}\n`;
}

/** The prd.json ralph writes from a PRD's fields: its top level (stories aside) and each story. */
function prdJsonObjects(prd: Prd): { top: Record<string, unknown>; stories: Record<string, unknown>[] } {
  const stories = prd.stories.map((story) => {
    const known = {
      id: story.id,
      title: story.title,
      description: story.description,
      acceptanceCriteria: story.acceptanceCriteria.map(boxesToBallots),
      ...(ownTicks(story) ? { acceptanceCriteriaChecked: story.checkedCriteria } : {}),
      priority: story.priority,
      passes: story.status === 'done',
      inProgress: story.status === 'in-progress',
      ...(story.dependsOn.length > 0 ? { dependsOn: story.dependsOn } : {}),
      ...(story.notes !== undefined ? { notes: story.notes } : {}),
    };
    return { ...known, ...others(story.otherFields, known) };
  });
  const doc = {
    project: prd.project,
    ...(prd.branchName !== undefined ? { branchName: prd.branchName } : {}),
    ...(prd.description !== undefined ? { description: prd.description } : {}),
    userStories: null,
  };
  const sections = prd.sections && prd.sections.length > 0 ? { markdownSections: prd.sections } : {};
  return {
    top: { ...doc, ...others(prd.otherFields, { ...doc, markdownSections: 0 }), ...sections },
    stories,
  };
}

/** The carried fields that do not collide with a field ralph writes itself. */
function others(fields: Record<string, unknown> | undefined, known: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields ?? {}).filter(([key]) => !Object.hasOwn(known, key)));
}

/**
 * Whether a story's ticks say more than its status: a done story has every
 * box ticked and an open one none, so only other mixes need writing down.
 */
function ownTicks(story: Story): boolean {
  return story.checkedCriteria?.some((tick) => tick !== (story.status === 'done')) ?? false;
}

const oneParagraph = (text: string): string => text.trim().replace(/\n\s*\n+/g, '\n');

/**
 * A Chief-style prd.md that parsePrdMd reads back to the same PRD. From a
 * prd.json, the objects the prd.md would not give back exactly travel in
 * its fields comment (json-originals.ts).
 */
export function prdToMarkdown(prd: Prd): string {
  const plain = markdownOf(prd);
  if (!prd.jsonOriginals) return plain;
  const reread = parsePrdMd(plain, prd.path);
  if (!reread.ok) return plain;
  const carry = originalsToCarry(prd.jsonOriginals, reread.prd, prdJsonObjects(reread.prd));
  return carry ? markdownOf(prd, carry) : plain;
}

function markdownOf(prd: Prd, originals?: JsonOriginals): string {
  // Text above the title (ralph-tui's `[PRD]`) stays above it.
  const above = (prd.sections ?? []).filter((s) => s.beforeTitle).flatMap((s) => [s.markdown, '']);
  const out: string[] = [...above, `# ${prd.project}`, ''];
  const sections = (prd.sections ?? []).filter((s) => !s.beforeTitle);
  const description = prd.description?.trim();
  // A description read from an Overview section is written there, not twice.
  if (description && !sections.some((s) => s.markdown.includes(description))) out.push(description, '');
  if (prd.branchName) out.push(`**Branch:** ${prd.branchName}`, '');

  const ids = new Set(prd.stories.map((s) => s.id));
  const before = (id: string) => sections.filter((s) => s.beforeStory === id).map((s) => s.markdown);
  const lead = prd.stories[0] ? sections.filter((s) => s.beforeStory === prd.stories[0]?.id) : [];
  out.push(...lead.flatMap((s) => [s.markdown, '']));
  // A prd.md's own text before its stories already has the heading it had (or none); a bare one was framing.
  if (lead.length === 0) out.push('## User Stories', '');
  const comment = fieldsCommentLines(prd, originals);
  if (comment.length > 0) out.push(...comment, '');
  prd.stories.forEach((story, i) => {
    if (i > 0) out.push(...before(story.id).flatMap((markdown) => [markdown, '']));
    out.push(...storyToMarkdown(story), '');
  });
  const after = sections.filter((s) => s.beforeStory === undefined || !ids.has(s.beforeStory));
  out.push(...after.flatMap((s) => [s.markdown, '']));
  return `${out.join('\n').trimEnd()}\n`;
}

/** ralph-tui reads `Feature 1.1` as `FEAT-1-1` and cannot read `FEAT-1-1:` itself. */
function headingId(id: string): string {
  const feature = /^FEAT-(\d+)-(\d+)$/.exec(id);
  return feature ? `Feature ${feature[1]}.${feature[2]}` : id;
}

/**
 * ralph-tui reads one digit of a `**Priority:**` (12 would be 1, ahead of
 * 2 to 9); `+12` it does not read at all and orders the story by its place
 * in the file, while Chief and ralph read +12 as 12.
 */
function priorityText(priority: number): string {
  return Number.isInteger(priority) && priority >= 0 && priority <= 9
    ? String(priority)
    : `${priority > 0 ? '+' : ''}${priority}`;
}

/**
 * A description's first paragraph goes on the `**Description:**` line; the
 * rest (implementation notes, a design spec, code) follows the fields as
 * written, its headings made deeper than the story's own `###`.
 */
function splitDescription(description: string): { lead: string; rest: string } {
  const lines = description.trim().split('\n');
  const fenced = fencedLines(lines);
  const plainFirst = lines[0] !== undefined && !fenced[0] && /^[^\s#>|`~*_\-+[<]/.test(lines[0]);
  let end = plainFirst ? lines.findIndex((line, i) => line.trim() === '' && !fenced[i]) : 0;
  if (end < 0) end = lines.length;
  const rest = lines.slice(end).map((line, i) => {
    const h = fenced[end + i] ? undefined : headingOf(line);
    return h && h.level <= 3 ? `#### ${h.text}` : line;
  });
  return { lead: lines.slice(0, end).join('\n').trim(), rest: rest.join('\n').trim() };
}

/** A criterion's first line on its box; its sub-list and later lines indented under it. */
function criterionLines(text: string, ticked: boolean): string[] {
  const [first = '', ...more] = text.split('\n');
  return [
    `- ${ticked ? '[x]' : '[ ]'} ${first}`,
    ...more.map((line) => (line.trim() === '' || indentOf(line) > 0 ? line : `  ${line}`)),
  ];
}

function storyToMarkdown(story: Story): string[] {
  const lines = [
    `### ${headingId(story.id)}: ${story.title}`,
    '',
    `**Status:** ${story.status}`,
    `**Priority:** ${priorityText(story.priority)}`,
  ];
  const { lead, rest } = splitDescription(story.description);
  if (lead) lines.push(`**Description:** ${lead}`);
  if (story.dependsOn.length > 0) lines.push(`**Depends on:** ${story.dependsOn.join(', ')}`);
  if (rest) lines.push('', rest);
  if (story.acceptanceCriteria.length > 0) {
    const ticked = (i: number): boolean => story.checkedCriteria?.[i] ?? story.status === 'done';
    lines.push(
      '',
      '**Acceptance Criteria:**',
      ...story.acceptanceCriteria.flatMap((c, i) => criterionLines(c, ticked(i))),
    );
  }
  if (story.notes !== undefined && story.notes.trim() !== '')
    lines.push('', `**Notes:** ${oneParagraph(story.notes)}`);
  return lines;
}
