import { describe, expect, it } from 'vitest';
import { buildStory as story } from '../../test/support/story-builder.js';
import {
  afterRefusal,
  fileHints,
  heldByReservation,
  isRace,
  nextToLand,
  raceSummary,
  requeueNote,
} from './landing-race.js';

describe('a race to land', () => {
  it('is a failure on a tip that moved since the attempt started; on the same tip it is the story’s own', () => {
    expect(isRace({ base: 'a', tip: 'b' })).toBe(true);
    expect(isRace({ base: 'a', tip: 'a' })).toBe(false);
  });

  it('is summed up by what conflicted with whom, or which check failed', () => {
    const conflict = { kind: 'conflict', files: ['REGISTRY.md'], diff: '' } as const;
    expect(raceSummary(conflict, ['US-006'])).toBe('conflict with US-006 in REGISTRY.md');
    expect(
      raceSummary({ kind: 'gates', command: 'npm test', exitCode: 1, outputTail: '' }, ['US-002', 'US-003']),
    ).toBe('the check `npm test` failed once US-002, US-003 landed');
  });

  it('a refused resolution requeues the story, up to the bound; past it the story is parked, saying why', () => {
    expect(afterRefusal({ requeues: 0, max: 5, why: 'x' })).toEqual({ kind: 'requeue', requeues: 1 });
    expect(afterRefusal({ requeues: 4, max: 5, why: 'x' })).toEqual({ kind: 'requeue', requeues: 5 });
    const parked = afterRefusal({ requeues: 5, max: 5, why: 'conflict with US-006 in REGISTRY.md' });
    expect(parked).toEqual({
      kind: 'park',
      reason:
        'could not land after 5 requeues: each time other stories landed first (last: conflict with US-006 in REGISTRY.md)',
    });
  });

  it('the redo is told what conflicted, who landed, and why the resolution was refused', () => {
    const note = requeueNote(
      { kind: 'conflict', files: ['REGISTRY.md'], diff: '<<<<<<< HEAD' },
      ['US-006'],
      'the resolution removed lines that US-006 added',
    );
    expect(note.kind).toBe('conflict');
    expect(note.reason).toContain('while it ran, US-006 landed on the PRD branch');
    expect(note.reason).toContain(
      'Bringing it onto the new tip failed: the resolution removed lines that US-006 added.',
    );
    expect(note.detail).toBe('<<<<<<< HEAD');
  });
});

describe('the reservation of the next landing', () => {
  const queue = [{ storyId: 'A' }, { storyId: 'B' }, { storyId: 'C' }];

  it('lands the reserved story next, and nothing else while it is not verified yet', () => {
    expect(nextToLand(queue, null)).toEqual({ storyId: 'A' });
    // Without a reservation, the story others wait on goes first: its dependants start sooner.
    const chain = [story('A'), story('B'), story('C'), story('C2', { dependsOn: ['C'] })];
    expect(nextToLand(queue, null, chain)).toEqual({ storyId: 'C' });
    const deeper = [...chain, story('B2', { dependsOn: ['B'] }), story('B3', { dependsOn: ['B2'] })];
    expect(nextToLand(queue, null, deeper)).toEqual({ storyId: 'B' });
    expect(nextToLand(queue, { storyId: 'C', files: [] })).toEqual({ storyId: 'C' });
    expect(nextToLand(queue, { storyId: 'D', files: [] })).toBeUndefined();
  });

  it('holds back new stories whose files hint overlaps the waiting story’s work, and only those', () => {
    const stories = [
      story('A', { otherFields: { files: ['REGISTRY.md', 'a.ts'] } }),
      story('B', { otherFields: { files: ['b.ts'] } }),
      story('C'),
      story('W', { otherFields: { files: ['REGISTRY.md'] } }),
    ];
    expect(heldByReservation(stories, { storyId: 'W', files: ['REGISTRY.md', 'w.ts'] })).toEqual(
      new Set(['A']),
    );
    expect(heldByReservation(stories, null)).toEqual(new Set());
  });

  it('reads a files hint only when it is a list of paths', () => {
    expect(fileHints(story('A', { otherFields: { files: ['x.ts'] } }))).toEqual(['x.ts']);
    expect(fileHints(story('A', { otherFields: { files: 'x.ts' } }))).toEqual([]);
    expect(fileHints(story('A'))).toEqual([]);
  });
});
