/**
 * The outside-world runs (test/e2e/outside-world*.test.ts): their two-story
 * PRD, ralph's short waits, and what they check of a run — nothing charged to
 * a story, each story's attempts.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitFixture } from './git-fixture.js';
import { implement } from './story-script.js';

type Event = { type: string; [k: string]: unknown };

export const TWO_STORIES = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
];
export const TWO_STORIES_PLAN = {
  'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
  'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
};
/** Short waits on ralph's side. */
export const SHORT_WAITS = {
  RALPH_OUTAGE_BACKOFF_MS: '1500',
  RALPH_OUTAGE_MAX_BACKOFF_MS: '4000',
  RALPH_WAIT_TICK_MS: '1000',
};

/** The events that charge a story: a failed attempt, a park. */
export const countedAgainstStories = (all: readonly Event[]): Event[] =>
  all.filter((e) => e.type === 'attempt-failed' || e.type === 'story-parked');

/** Each story's attempts (and whether it is parked) in the project's only run state. */
export async function storyAttempts(p: {
  repo: GitFixture;
  read(path: string): Promise<string>;
}): Promise<Record<string, { attempts: number; parked?: boolean }>> {
  const [name] = await readdir(join(p.repo.dir, '.ralph', 'runs'));
  const state = JSON.parse(await p.read(`.ralph/runs/${name}/state.json`)) as {
    stories: Record<string, { attempts: number; parked?: boolean }>;
  };
  return state.stories;
}
