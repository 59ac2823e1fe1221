import type { Prd, Story } from '../core/types.js';

/**
 * Deterministic conversions between the two PRD file formats. Both carry
 * the same story fields (ids, titles, descriptions, criteria and each
 * criterion's tick, priorities, statuses, dependencies, notes) and the PRD's
 * project, branch and description. Markdown cannot hold blank lines inside a story's
 * description or notes, so those collapse to single line breaks.
 */

/** A snarktank / Chief prd.json, 2-space indented, with a trailing newline. */
export function prdToJson(prd: Prd): string {
  const doc = {
    project: prd.project,
    ...(prd.branchName !== undefined ? { branchName: prd.branchName } : {}),
    ...(prd.description !== undefined ? { description: prd.description } : {}),
    userStories: prd.stories.map((story) => ({
      id: story.id,
      title: story.title,
      description: story.description,
      acceptanceCriteria: story.acceptanceCriteria,
      ...(ownTicks(story) ? { acceptanceCriteriaChecked: story.checkedCriteria } : {}),
      priority: story.priority,
      passes: story.status === 'done',
      inProgress: story.status === 'in-progress',
      ...(story.dependsOn.length > 0 ? { dependsOn: story.dependsOn } : {}),
      ...(story.notes !== undefined ? { notes: story.notes } : {}),
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * Whether a story's ticks say more than its status: a done story has every
 * box ticked and an open one none, so only other mixes need writing down.
 */
function ownTicks(story: Story): boolean {
  return story.checkedCriteria?.some((tick) => tick !== (story.status === 'done')) ?? false;
}

const oneParagraph = (text: string): string => text.trim().replace(/\n\s*\n+/g, '\n');

/** A Chief-style prd.md that parsePrdMd reads back to the same stories. */
export function prdToMarkdown(prd: Prd): string {
  const out: string[] = [`# ${prd.project}`, ''];
  if (prd.description?.trim()) out.push(prd.description.trim(), '');
  if (prd.branchName) out.push(`**Branch:** ${prd.branchName}`, '');
  out.push('## User Stories', '');
  for (const story of prd.stories) out.push(...storyToMarkdown(story), '');
  return `${out.join('\n').trimEnd()}\n`;
}

function storyToMarkdown(story: Story): string[] {
  const lines = [
    `### ${story.id}: ${story.title}`,
    '',
    `**Status:** ${story.status}`,
    `**Priority:** ${story.priority}`,
  ];
  if (story.description.trim()) lines.push(`**Description:** ${oneParagraph(story.description)}`);
  if (story.dependsOn.length > 0) lines.push(`**Depends on:** ${story.dependsOn.join(', ')}`);
  if (story.acceptanceCriteria.length > 0) {
    const ticked = (i: number): boolean => story.checkedCriteria?.[i] ?? story.status === 'done';
    lines.push(
      '',
      '**Acceptance Criteria:**',
      ...story.acceptanceCriteria.map((c, i) => `- ${ticked(i) ? '[x]' : '[ ]'} ${c}`),
    );
  }
  if (story.notes !== undefined && story.notes.trim() !== '')
    lines.push('', `**Notes:** ${oneParagraph(story.notes)}`);
  return lines;
}
