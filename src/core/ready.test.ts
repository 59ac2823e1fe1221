import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildStory } from '../../test/support/story-builder.js';
import { readyStories } from './ready.js';
import type { StoryStatus } from './types.js';

const story = buildStory;
const ids = (stories: { id: string }[]) => stories.map((s) => s.id);
const none = new Set<string>();

describe('readyStories', () => {
  const chains = [
    story('A1', { order: 0, priority: 1 }),
    story('A2', { order: 1, priority: 2, dependsOn: ['A1'] }),
    story('B1', { order: 2, priority: 3 }),
    story('B2', { order: 3, priority: 1, dependsOn: ['B1'] }),
    story('C1', { order: 4, priority: 2 }),
  ];

  it('starts every story whose dependencies have landed, in priority then file order, up to the cap', () => {
    expect(ids(readyStories(chains, { busy: none, cap: 5 }))).toEqual(['A1', 'C1', 'B1']);
    expect(ids(readyStories(chains, { busy: none, cap: 2 }))).toEqual(['A1', 'C1']);
    expect(readyStories(chains, { busy: none, cap: 0 })).toEqual([]);
  });

  it('starts a story redone after losing a race before any other, even past the cap', () => {
    expect(ids(readyStories(chains, { busy: none, cap: 1, first: new Set(['B1']) }))).toEqual(['B1']);
    expect(ids(readyStories(chains, { busy: none, cap: 5, first: new Set(['B1']) }))).toEqual([
      'B1',
      'A1',
      'C1',
    ]);
  });

  it('never starts a busy story, and a story whose dependency is still running waits', () => {
    expect(ids(readyStories(chains, { busy: new Set(['A1', 'C1']), cap: 5 }))).toEqual(['B1']);
  });

  it('a landed dependency frees its dependants; parked stories stay out', () => {
    const landed = chains.map((s) =>
      s.id === 'A1' || s.id === 'B1' ? { ...s, status: 'done' as const } : s,
    );
    expect(ids(readyStories(landed, { busy: none, cap: 5 }))).toEqual(['B2', 'A2', 'C1']);
    expect(ids(readyStories(landed, { busy: none, cap: 5, parked: new Set(['B2']) }))).toEqual(['A2', 'C1']);
  });

  it('puts a story in progress first and honours --story', () => {
    const resumed = chains.map((s) => (s.id === 'B1' ? { ...s, status: 'in-progress' as const } : s));
    expect(ids(readyStories(resumed, { busy: none, cap: 1 }))).toEqual(['B1']);
    expect(ids(readyStories(chains, { busy: none, cap: 5, onlyStoryId: 'C1' }))).toEqual(['C1']);
  });

  it('never returns a done, busy or parked story, nor one with an unlanded dependency (property)', () => {
    const arb = fc
      .array(
        fc.record({
          status: fc.constantFrom<StoryStatus>('todo', 'done', 'in-progress'),
          deps: fc.array(fc.nat(), { maxLength: 3 }),
          busy: fc.boolean(),
          parked: fc.boolean(),
          priority: fc.integer({ min: 1, max: 4 }),
        }),
        { maxLength: 12 },
      )
      .chain((rows) => fc.tuple(fc.constant(rows), fc.integer({ min: 0, max: 6 })));
    fc.assert(
      fc.property(arb, ([rows, cap]) => {
        const stories = rows.map((r, i) =>
          story(`S${i}`, {
            status: r.status,
            order: i,
            priority: r.priority,
            dependsOn: i === 0 ? [] : [...new Set(r.deps.map((d) => `S${d % i}`))],
          }),
        );
        const busy = new Set(rows.flatMap((r, i) => (r.busy ? [`S${i}`] : [])));
        const parked = new Set(rows.flatMap((r, i) => (r.parked ? [`S${i}`] : [])));
        const ready = readyStories(stories, { busy, parked, cap });
        const done = new Set(stories.filter((s) => s.status === 'done').map((s) => s.id));
        expect(ready.length).toBeLessThanOrEqual(cap);
        for (const s of ready) {
          expect(s.status).not.toBe('done');
          expect(busy.has(s.id) || parked.has(s.id)).toBe(false);
          for (const d of s.dependsOn) expect(done.has(d)).toBe(true);
        }
      }),
    );
  });
});
