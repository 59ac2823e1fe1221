/**
 * Tasks kept outside the repository (GitHub issues) with git as the truth of
 * what is done: a story is done when its pass record
 * (`chore(ralph): <id> passed`) is on the run's branch, whatever its labels
 * say. Labels are told after the landing (app/github-write-back.ts), so a
 * run killed between the two finds the work landed and the label still owed;
 * a label that claims work git does not hold (written before the branch
 * moved, by a version of ralph that did) is wrong: for a story this run has
 * worked on, the story is not done, its verified branch lands, and the label
 * is taken off. A `ralph:done` put on an issue ralph never touched is the
 * user's word, and stays.
 */

import { passedStoryIds } from '../core/pass-commit.js';
import { storyBranchesPrefix } from '../core/story-ref.js';
import type { Story } from '../core/types.js';
import { git } from '../git/index.js';
import { listStoryBranches } from '../git/story-branches.js';
import type { ReadResult, TaskSource } from '../sources/task-source.js';
import { readRunState } from '../state/run-state.js';

export interface GitTruthOptions {
  /** The checkout the run lands its stories in: its HEAD is the run's branch. */
  cwd: string;
  /** The run's name, for its story branches. */
  name: string;
  /** The run's state file, for the stories it has worked on. */
  stateFile: string;
}

export function withPassesFromGit(source: TaskSource, options: GitTruthOptions): TaskSource {
  return {
    ...source,
    read: async (): Promise<ReadResult> => {
      const result = await source.read();
      if (!result.ok) return result;
      const landed = new Set(passedStoryIds(await subjectsAtHead(options.cwd)));
      const worked = await workedOn(options);
      const wrong: string[] = [];
      const stories = result.prd.stories.map((story): Story => {
        if (landed.has(story.id)) return { ...story, status: 'done' };
        if (story.status !== 'done' || !worked.has(story.id)) return story;
        wrong.push(story.id);
        return { ...story, status: 'todo' };
      });
      // Labels are set to what git holds; a refused call leaves the label wrong, never the story.
      for (const id of wrong) await source.setStatus(id, 'todo').catch(() => undefined);
      return { ...result, prd: { ...result.prd, stories } };
    },
  };
}

async function subjectsAtHead(cwd: string): Promise<string[]> {
  const out = await git(['log', '--format=%s', 'HEAD', '--'], { cwd }).catch(() => '');
  return out.split('\n').filter(Boolean);
}

/** Stories this run has attempted (its state counts an attempt) or holds a story branch for. */
async function workedOn(options: GitTruthOptions): Promise<Set<string>> {
  const state = await readRunState(options.stateFile).catch(() => null);
  const ids = new Set(
    Object.entries(state?.stories ?? {})
      .filter(([, s]) => s.attempts > 0)
      .map(([id]) => id),
  );
  const branches = await listStoryBranches(options.cwd, storyBranchesPrefix(options.name)).catch(() => []);
  for (const b of branches) if (b.verdict?.storyId) ids.add(b.verdict.storyId);
  return ids;
}
