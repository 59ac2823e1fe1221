import { describe, expect, it } from 'vitest';
import { buildStory } from '../../test/support/story-builder.js';
import { integrationOrder, planShared } from './shared-plan.js';
import type { Prd, Story } from './types.js';

const prdOf = (stories: Story[]): Prd => ({ format: 'prd-json', path: 'prd.json', project: 'p', stories });
const ids = (plan: { stories: { id: string }[] }) => plan.stories.map((s) => s.id);

const chains = [
  buildStory('A1', { order: 0, priority: 1 }),
  buildStory('A2', { order: 1, priority: 2, dependsOn: ['A1'] }),
  buildStory('B1', { order: 2, priority: 3 }),
  buildStory('B2', { order: 3, priority: 1, dependsOn: ['B1'] }),
  buildStory('C1', { order: 4, priority: 2 }),
];

describe('planShared', () => {
  it('plans what is ready on the PRD branch, capped, leaving out what the remote has verified or parked', () => {
    const prd = prdOf(chains);
    expect(ids(planShared(prd, [], 10))).toEqual(['A1', 'C1', 'B1']);
    expect(ids(planShared(prd, [], 2))).toEqual(['A1', 'C1']);
    const plan = planShared(
      prd,
      [
        { storyId: 'A1', verified: true, parked: false },
        { storyId: 'C1', verified: false, parked: true },
      ],
      10,
    );
    expect(ids(plan)).toEqual(['B1']);
    expect(plan.verified).toEqual(['A1']);
    expect(plan.parked).toEqual(['C1']);
    expect(plan.remaining).toBe(5);
    expect(plan.complete).toBe(false);
  });

  it('a story whose branch is unfinished or failed without parking is planned again', () => {
    const plan = planShared(prdOf(chains), [{ storyId: 'A1', verified: false, parked: false }], 10);
    expect(ids(plan)).toContain('A1');
  });

  it('landed dependencies free their dependants; a branch left for a landed story changes nothing', () => {
    const prd = prdOf([
      buildStory('A1', { order: 0, priority: 1, status: 'done' }),
      buildStory('A2', { order: 1, priority: 2, dependsOn: ['A1'] }),
    ]);
    const plan = planShared(prd, [{ storyId: 'A1', verified: true, parked: false }], 10);
    expect(ids(plan)).toEqual(['A2']);
    expect(plan.verified).toEqual([]);
    expect(plan.remaining).toBe(1);
  });

  it('is complete once every story has landed', () => {
    const plan = planShared(prdOf([buildStory('A1', { order: 0, priority: 1, status: 'done' })]), [], 10);
    expect(plan).toMatchObject({ stories: [], remaining: 0, complete: true });
  });
});

describe('integrationOrder', () => {
  const v = (storyId: string, verifiedAt: string) => ({ storyId, verifiedAt });

  it('lands in verification order, a story only after what it depends on', () => {
    const prd = prdOf(chains);
    const order = integrationOrder(prd, [
      v('A2', '2026-01-01T00:00:01Z'),
      v('B1', '2026-01-01T00:00:02Z'),
      v('A1', '2026-01-01T00:00:03Z'),
    ]);
    // A2 was verified first but waits for A1; once A1 is in, A2 goes before later ones.
    expect(order.map((o) => o.storyId)).toEqual(['B1', 'A1', 'A2']);
  });

  it('leaves out stories already landed, unknown to the task file, or whose dependency is not there', () => {
    const prd = prdOf([
      buildStory('A1', { order: 0, priority: 1, status: 'done' }),
      buildStory('A2', { order: 1, priority: 2, dependsOn: ['A1'] }),
      buildStory('B1', { order: 2, priority: 3 }),
      buildStory('B2', { order: 3, priority: 1, dependsOn: ['B1'] }),
    ]);
    const order = integrationOrder(prd, [
      v('A1', '2026-01-01T00:00:01Z'),
      v('X9', '2026-01-01T00:00:02Z'),
      v('B2', '2026-01-01T00:00:03Z'),
      v('A2', '2026-01-01T00:00:04Z'),
    ]);
    expect(order.map((o) => o.storyId)).toEqual(['A2']);
  });
});
