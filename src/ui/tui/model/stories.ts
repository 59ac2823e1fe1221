/** The story list as shown: the task file's stories with what the running loop says about them. */
import type { StoryQuestion, StoryState, StorySummary } from '../session.js';
import type { RunView } from './run-view.js';

export interface StoryRow {
  story: StorySummary;
  state: StoryState;
  attempts: number;
  costUsd: number;
  durationMs: number;
  lastFailure?: string;
  question?: StoryQuestion;
}

export const STATUS_ICON: Readonly<Record<StoryState, string>> = {
  done: '✓',
  'in-progress': '●',
  todo: '○',
  parked: '✗',
  waiting: '?',
};

/**
 * The rows of the last call per story list: most events change neither the
 * stories nor what the run knows of them, and the same rows (same objects)
 * let the panels that show them skip drawing again.
 */
const last = new WeakMap<readonly StorySummary[], { runStories: RunView['stories']; rows: StoryRow[] }>();

export function storyRows(stories: readonly StorySummary[], run: RunView): StoryRow[] {
  const hit = last.get(stories);
  if (hit !== undefined && hit.runStories === run.stories) return hit.rows;
  const rows = computeRows(stories, run);
  last.set(stories, { runStories: run.stories, rows });
  return rows;
}

function computeRows(stories: readonly StorySummary[], run: RunView): StoryRow[] {
  return stories.map((story) => {
    const live = run.stories[story.id];
    const lastFailure = live?.lastFailure ?? story.lastFailure;
    const asked = live?.question ?? story.question;
    const question = asked && live?.answered !== undefined ? { ...asked, answer: live.answered } : asked;
    return {
      story,
      // The task file is the record: a story it marks done stays done whatever the run saw.
      state: story.status === 'done' ? 'done' : (live?.state ?? story.status),
      attempts: live?.attempts ?? story.attempts,
      costUsd: live?.costUsd ?? story.costUsd,
      durationMs: live?.durationMs ?? story.durationMs,
      ...(lastFailure !== undefined ? { lastFailure } : {}),
      ...(question !== undefined ? { question } : {}),
    };
  });
}

export const countDone = (rows: readonly StoryRow[]): number => rows.filter((r) => r.state === 'done').length;

/**
 * The story the details panel shows: the user's pick, else the one being
 * worked on, else the next not done, else the first.
 */
export function focusedIndex(
  rows: readonly StoryRow[],
  picked: string | null,
  current: string | null,
): number {
  const find = (id: string | null) => (id === null ? -1 : rows.findIndex((r) => r.story.id === id));
  for (const index of [find(picked), find(current), rows.findIndex((r) => r.state !== 'done')]) {
    if (index >= 0) return index;
  }
  return 0;
}

/** The first row of a `height`-row window over `count` rows that keeps `index` in view, centred when it can. */
export function windowStart(count: number, height: number, index: number): number {
  if (height <= 0 || count <= height) return 0;
  const centred = index - Math.floor(height / 2);
  return Math.max(0, Math.min(centred, count - height));
}
