import { compareStories, type SelectionOptions, storiesInScope } from './select.js';
import { isPassed, type Story } from './types.js';

export interface ReadyOptions extends SelectionOptions {
  /** Stories with an attempt in flight or verified work waiting to land: never started twice. */
  busy: ReadonlySet<string>;
  /** How many may start now (free workers). */
  cap: number;
  /** Stories to start before any other when they are ready (redone after losing a race to land). */
  first?: ReadonlySet<string>;
}

/**
 * The plan role of a parallel run: the stories that may start now. A story
 * is ready when it is in scope, not done on the PRD branch, not parked, not
 * waiting for an answer, not busy, and every story it depends on has landed (is done on the PRD
 * branch). A story whose dependency is still running therefore waits. The
 * order is the selection rule's (a story in progress first, then priority,
 * then source order), after `first`, capped by `cap`.
 */
export function readyStories(stories: readonly Story[], options: ReadyOptions): Story[] {
  if (options.cap <= 0) return [];
  const parked = options.parked ?? new Set<string>();
  const asked = options.waiting ?? new Set<string>();
  const landed = new Set(stories.filter(isPassed).map((s) => s.id));
  return storiesInScope(stories, options)
    .filter(
      (s) =>
        !isPassed(s) &&
        !parked.has(s.id) &&
        !asked.has(s.id) &&
        !options.busy.has(s.id) &&
        s.dependsOn.every((d) => landed.has(d)),
    )
    .sort(
      (a, b) =>
        Number(options.first?.has(b.id) ?? false) - Number(options.first?.has(a.id) ?? false) ||
        inProgressFirst(a, b) ||
        compareStories(a, b),
    )
    .slice(0, options.cap);
}

const inProgressFirst = (a: Story, b: Story): number =>
  Number(b.status === 'in-progress') - Number(a.status === 'in-progress');
