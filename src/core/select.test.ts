import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildStory } from '../../test/support/story-builder.js';
import { selectNextStory } from './select.js';
import type { StoryStatus } from './types.js';

const story = buildStory;

/** Random acyclic story sets: a story may only depend on stories before it. */
const storiesArb = fc
  .array(
    fc.record({
      priority: fc.integer({ min: 1, max: 5 }),
      status: fc.constantFrom<StoryStatus>('todo', 'todo', 'done', 'in-progress'),
      depSeeds: fc.array(fc.nat(), { maxLength: 3 }),
    }),
    { minLength: 0, maxLength: 12 },
  )
  .map((rows) =>
    rows.map((row, i) =>
      story(`S-${i}`, {
        priority: row.priority,
        status: row.status,
        order: i,
        dependsOn: i === 0 ? [] : [...new Set(row.depSeeds.map((n) => `S-${n % i}`))],
      }),
    ),
  );

describe('selectNextStory', () => {
  it('picks the lowest priority, ties by file order', () => {
    const stories = [
      story('A', { priority: 2, order: 0 }),
      story('B', { priority: 1, order: 1 }),
      story('C', { priority: 1, order: 2 }),
    ];
    expect(selectNextStory(stories)).toMatchObject({ kind: 'story', story: { id: 'B' } });
  });

  it('continues a story in progress before anything else', () => {
    const stories = [
      story('A', { priority: 1, order: 0 }),
      story('B', { priority: 9, order: 1, status: 'in-progress' }),
    ];
    expect(selectNextStory(stories)).toMatchObject({ kind: 'story', story: { id: 'B' } });
  });

  it('waits for dependencies and reports what blocks', () => {
    const stories = [
      story('A', { priority: 2, order: 0, dependsOn: ['B'] }),
      story('B', { priority: 3, order: 1 }),
    ];
    expect(selectNextStory(stories)).toMatchObject({ story: { id: 'B' } });
    const parked = new Set(['B']);
    expect(selectNextStory(stories, { parked })).toEqual({
      kind: 'blocked',
      waiting: [
        { id: 'A', parked: false, waitingOn: ['B'] },
        { id: 'B', parked: true, waitingOn: [] },
      ],
    });
  });

  it('skips a parked story and runs an independent one after it', () => {
    const stories = [story('A', { order: 0 }), story('B', { order: 1 })];
    expect(selectNextStory(stories, { parked: new Set(['A']) })).toMatchObject({ story: { id: 'B' } });
  });

  it('--story restricts to one story; --resume-from skips earlier ones', () => {
    const stories = [story('A', { order: 0 }), story('B', { order: 1 }), story('C', { order: 2 })];
    expect(selectNextStory(stories, { onlyStoryId: 'C' })).toMatchObject({ story: { id: 'C' } });
    expect(selectNextStory(stories, { resumeFromId: 'B' })).toMatchObject({ story: { id: 'B' } });
    const bDone = stories.map((s) => (s.id === 'C' ? { ...s, status: 'done' as const } : s));
    expect(selectNextStory(bDone, { onlyStoryId: 'C' })).toEqual({ kind: 'all-done' });
  });

  it('never picks a passed story, nor one with an unpassed dependency', () => {
    fc.assert(
      fc.property(storiesArb, (stories) => {
        const sel = selectNextStory(stories);
        if (sel.kind !== 'story') return;
        const passed = new Set(stories.filter((s) => s.status === 'done').map((s) => s.id));
        expect(sel.story.status).not.toBe('done');
        for (const dep of sel.story.dependsOn) expect(passed.has(dep)).toBe(true);
      }),
    );
  });

  it('picks an eligible in-progress story whenever one exists', () => {
    fc.assert(
      fc.property(storiesArb, (stories) => {
        const passed = new Set(stories.filter((s) => s.status === 'done').map((s) => s.id));
        const eligibleInProgress = stories.filter(
          (s) => s.status === 'in-progress' && s.dependsOn.every((d) => passed.has(d)),
        );
        const sel = selectNextStory(stories);
        if (eligibleInProgress.length > 0) {
          expect(sel.kind).toBe('story');
          if (sel.kind === 'story') expect(sel.story.status).toBe('in-progress');
        }
      }),
    );
  });

  it('terminates: passing each selected story finishes in at most n steps', () => {
    fc.assert(
      fc.property(storiesArb, (initial) => {
        let stories = initial;
        for (let step = 0; step <= initial.length; step++) {
          const sel = selectNextStory(stories);
          if (sel.kind === 'all-done') return;
          // Acyclic dependencies on earlier stories can never block everything.
          expect(sel.kind).toBe('story');
          if (sel.kind !== 'story') return;
          const id = sel.story.id;
          stories = stories.map((s) => (s.id === id ? { ...s, status: 'done' } : s));
        }
        throw new Error('selection did not terminate');
      }),
    );
  });
});

describe('selectNextStory with stories waiting for answers', () => {
  it('passes over a waiting story, and is blocked when only it and its dependants are left', () => {
    const stories = [
      story('US-001', { priority: 1 }),
      story('US-002', { priority: 2, dependsOn: ['US-001'] }),
      story('US-003', { priority: 3 }),
    ];
    const waiting = new Set(['US-001']);
    const next = selectNextStory(stories, { waiting });
    expect(next.kind === 'story' && next.story.id).toBe('US-003');
    const left = selectNextStory(stories.slice(0, 2), { waiting });
    expect(left).toEqual({
      kind: 'blocked',
      waiting: [
        { id: 'US-001', parked: false, waitingOn: [] },
        { id: 'US-002', parked: false, waitingOn: ['US-001'] },
      ],
    });
  });
});
