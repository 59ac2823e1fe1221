/**
 * The user edits the task file in the main checkout; a worktree run works on
 * its own copy, committed on the run's branch. Before a run on a branch that
 * already exists, the main checkout's edits since the branch took its copy
 * are brought in here: the user's text, with the run's statuses.
 */
import { copyFile } from 'node:fs/promises';
import type { Prd, Story } from '../core/types.js';
import { openTaskSource } from './load-task-source.js';
import { invalidTaskFile } from './source-errors.js';

export interface MainEdits {
  /** Stories the main checkout has and the run's copy had not. */
  added: string[];
  /** Stories whose title, description, criteria, priority, dependencies or notes were changed there. */
  changed: string[];
  /** Stories the main checkout no longer has. */
  removed: string[];
}

/** What makes a story the story it is, apart from how far it got. */
function definition(story: Story): string {
  const { title, description, acceptanceCriteria, priority, dependsOn, notes } = story;
  return JSON.stringify({ title, description, acceptanceCriteria, priority, dependsOn, notes: notes ?? '' });
}

/** The stories the main checkout added, changed and removed against the run's copy. */
export function mainEditsOf(main: Prd, live: Prd): MainEdits {
  const before = new Map(live.stories.map((s) => [s.id, s]));
  const after = new Set(main.stories.map((s) => s.id));
  return {
    added: main.stories.filter((s) => !before.has(s.id)).map((s) => s.id),
    changed: main.stories
      .filter((s) => {
        const was = before.get(s.id);
        return was !== undefined && definition(was) !== definition(s);
      })
      .map((s) => s.id),
    removed: live.stories.filter((s) => !after.has(s.id)).map((s) => s.id),
  };
}

/**
 * The PRD a run reads once it has taken the main checkout's edits: the main
 * checkout's stories, each one the run already knew at the run's status.
 * Read-only commands show this reading before the run has taken them.
 */
export function withRunStatuses(main: Prd, live: Prd): Prd {
  const status = new Map(live.stories.map((s) => [s.id, s.status]));
  return { ...main, stories: main.stories.map((s) => ({ ...s, status: status.get(s.id) ?? s.status })) };
}

/**
 * Replaces the live task file with the main checkout's copy, then sets every
 * story the run already knew back to the status the run gave it (the file
 * then reads as `withRunStatuses`). Throws the file's own errors
 * (file:line:column) when the main checkout's copy does not parse, touching
 * nothing; returns null when the live copy does not parse (the run reports
 * that one itself).
 */
export async function takeMainEdits(mainFile: string, liveFile: string): Promise<MainEdits | null> {
  const main = await openTaskSource(mainFile).read();
  if (!main.ok) throw invalidTaskFile(mainFile, main.issues);
  const liveSource = openTaskSource(liveFile);
  const live = await liveSource.read();
  if (!live.ok) return null;
  const edits = mainEditsOf(main.prd, live.prd);
  const merged = withRunStatuses(main.prd, live.prd);
  await copyFile(mainFile, liveFile);
  for (const [i, story] of merged.stories.entries()) {
    if (story.status !== main.prd.stories[i]?.status) await liveSource.setStatus(story.id, story.status);
  }
  return edits;
}
