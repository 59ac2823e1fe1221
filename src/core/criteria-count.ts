import type { Story } from './types.js';

/** A box of a sub-list under a criterion: `  - [ ] text` on a criterion's later line. */
export const NESTED_BOX = /^(\s*[-*+]\s+)\[([ xX])\](?=\s)/;

export interface CriteriaCount {
  /** Criteria as ralph reads them: a box with its sub-list is one. */
  criteria: number;
  /** Boxes nested under a criterion, each a criterion of its own to Chief. */
  nestedBoxes: number;
}

export function countCriteria(stories: readonly Story[]): CriteriaCount {
  let criteria = 0;
  let nestedBoxes = 0;
  for (const story of stories) {
    criteria += story.acceptanceCriteria.length;
    for (const criterion of story.acceptanceCriteria) {
      nestedBoxes += criterion
        .split('\n')
        .slice(1)
        .filter((line) => NESTED_BOX.test(line)).length;
    }
  }
  return { criteria, nestedBoxes };
}

/**
 * Why ralph's count of criteria is not Chief's, when it is not: ralph reads
 * a box with boxes nested under it as one criterion (the agent gets them
 * together), Chief each box as a criterion of its own.
 */
export function criteriaNote(count: CriteriaCount): string | undefined {
  if (count.nestedBoxes === 0) return undefined;
  const boxes = count.nestedBoxes === 1 ? '1 box is' : `${count.nestedBoxes} boxes are`;
  return `${count.criteria} criteria; Chief counts ${count.criteria + count.nestedBoxes}: ${boxes} nested under a criterion, part of that criterion here and a criterion of its own to Chief`;
}

/**
 * A prd.json criterion holds no markdown box markup: a box nested under it
 * is written with a ballot box (☐ open, ☑ ticked), and read back as the
 * box it was, so json and md convert into each other without loss.
 */
export function boxesToBallots(criterion: string): string {
  const [first = '', ...more] = criterion.split('\n');
  if (more.length === 0) return criterion;
  const lines = more.map((line) =>
    line.replace(NESTED_BOX, (_, lead: string, mark: string) => `${lead}${mark === ' ' ? '☐' : '☑'}`),
  );
  return [first, ...lines].join('\n');
}

const NESTED_BALLOT = /^(\s*[-*+]\s+)([☐☑])(?=\s)/;

export function ballotsToBoxes(criterion: string): string {
  const [first = '', ...more] = criterion.split('\n');
  if (more.length === 0) return criterion;
  const lines = more.map((line) =>
    line.replace(NESTED_BALLOT, (_, lead: string, mark: string) => `${lead}[${mark === '☐' ? ' ' : 'x'}]`),
  );
  return [first, ...lines].join('\n');
}
