/**
 * What a PRD says, for comparing two readings of it across a conversion:
 * every field ralph reads or carries, with the differences that are only
 * form taken out (how deep a heading inside a description is, blank lines
 * inside notes, `---` lines between sections).
 */
import type { Prd } from '../../src/core/types.js';

const text = (value: string | undefined): string =>
  (value ?? '')
    .replace(/^#{1,6}(?=\s)/gm, '#')
    .replace(/\n[ \t]*\n+/g, '\n\n')
    .trim();

export function prdMeaning(prd: Prd) {
  return {
    project: prd.project,
    branchName: prd.branchName,
    description: text(prd.description),
    otherFields: prd.otherFields ?? {},
    sections: (prd.sections ?? []).map((s) => ({ beforeStory: s.beforeStory, markdown: text(s.markdown) })),
    stories: prd.stories.map((s) => ({
      id: s.id,
      title: s.title,
      description: text(s.description),
      acceptanceCriteria: s.acceptanceCriteria,
      ticks: s.acceptanceCriteria.map((_, i) => s.checkedCriteria?.[i] ?? s.status === 'done'),
      priority: s.priority,
      status: s.status,
      dependsOn: s.dependsOn,
      notes: (s.notes ?? '').replace(/\n\s*\n+/g, '\n').trim(),
      otherFields: s.otherFields ?? {},
    })),
  };
}
