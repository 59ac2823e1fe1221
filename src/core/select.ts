import { isPassed, type Story } from './types.js';

export interface SelectionOptions {
  /** `--story`: consider only this story. */
  onlyStoryId?: string;
  /** `--resume-from`: skip stories that come before this one in the source's order. */
  resumeFromId?: string;
  /** Stories parked after exhausting their retries in this run. */
  parked?: ReadonlySet<string>;
  /** Stories whose agent asked a question that has no answer yet. */
  waiting?: ReadonlySet<string>;
}

export type Selection =
  | { kind: 'story'; story: Story }
  /** Every story in scope has passed. */
  | { kind: 'all-done' }
  /** Stories remain, but each is parked, waits for an answer, or waits on a story that has not passed. */
  | { kind: 'blocked'; waiting: BlockedStory[] };

export interface BlockedStory {
  id: string;
  parked: boolean;
  /** Dependencies that have not passed. */
  waitingOn: string[];
}

/**
 * The selection rule (contract): a story already in progress first; otherwise
 * the lowest priority among stories not passed whose dependencies have all
 * passed; ties by source order.
 */
export function selectNextStory(stories: readonly Story[], options: SelectionOptions = {}): Selection {
  const parked = options.parked ?? new Set<string>();
  const asked = options.waiting ?? new Set<string>();
  const passed = new Set(stories.filter(isPassed).map((s) => s.id));
  const inScope = storiesInScope(stories, options);
  const open = inScope.filter((s) => !isPassed(s));
  if (open.length === 0) return { kind: 'all-done' };

  const ready = open.filter(
    (s) => !parked.has(s.id) && !asked.has(s.id) && s.dependsOn.every((d) => passed.has(d)),
  );
  if (ready.length === 0) {
    return {
      kind: 'blocked',
      waiting: open.map((s) => ({
        id: s.id,
        parked: parked.has(s.id),
        waitingOn: s.dependsOn.filter((d) => !passed.has(d)),
      })),
    };
  }
  const sorted = [...ready].sort(compareStories);
  const story = sorted.find((s) => s.status === 'in-progress') ?? sorted[0];
  return story ? { kind: 'story', story } : { kind: 'all-done' };
}

/** `--story` and `--resume-from` narrow the stories considered. */
export function storiesInScope(stories: readonly Story[], options: SelectionOptions): readonly Story[] {
  if (options.onlyStoryId !== undefined) {
    return stories.filter((s) => s.id === options.onlyStoryId);
  }
  if (options.resumeFromId !== undefined) {
    const from = stories.find((s) => s.id === options.resumeFromId);
    if (from) return stories.filter((s) => s.order >= from.order);
  }
  return stories;
}

export function compareStories(a: Story, b: Story): number {
  return a.priority - b.priority || a.order - b.order;
}

/** Stories still to do in scope, for the dynamic iteration limit. */
export function remainingStories(stories: readonly Story[], options: SelectionOptions = {}): Story[] {
  return storiesInScope(stories, options).filter((s) => !isPassed(s));
}
