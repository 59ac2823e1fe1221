/** A project for parallel-run e2e tests: a PRD under `.ralph/prds/demo/`, run in its worktree. */

import type { GitFixture } from './git-fixture.js';
import { createLoopProject, type LoopProject } from './loop-project.js';
import type { Script } from './model-script.js';
import type { StoryPlan } from './story-script.js';

export interface Event {
  type: string;
  worker?: number | 'merge';
  storyId?: string;
  [key: string]: unknown;
}

/** `prd` as `.ralph/prds/demo/prd.json`, with `checks:` from `gates` and any extra files. */
export function parallelProject(
  prd: string,
  plan: StoryPlan,
  options: { gates?: string[]; files?: Record<string, string>; wrap?: (script: Script) => Script } = {},
): Promise<LoopProject> {
  const checks = options.gates ?? [];
  return createLoopProject(
    {
      '.ralph/.gitignore': 'runs/\nworktrees/\n',
      '.ralph/prds/demo/prd.json': prd,
      ...(checks.length > 0
        ? { '.ralph/config.yaml': `checks:\n${checks.map((c) => `  - ${JSON.stringify(c)}`).join('\n')}\n` }
        : {}),
      ...options.files,
    },
    plan,
    options.wrap ? { wrap: options.wrap } : {},
  );
}

const PASS_SUBJECT = /^chore\(ralph\): (.+) passed$/;

/** The stories recorded as passed on `branch` since `base`, in the order they landed. */
export async function landedOrder(
  repo: Pick<GitFixture, 'git'>,
  branch: string,
  base = 'main',
): Promise<string[]> {
  const subjects = (await repo.git('log', '--reverse', '--first-parent', '--format=%s', `${base}..${branch}`))
    .split('\n')
    .filter(Boolean);
  return subjects.flatMap((s) => {
    const id = PASS_SUBJECT.exec(s)?.[1];
    return id === undefined ? [] : [id];
  });
}

/** Every file at the tip of `branch`. */
export async function prdBranchFiles(repo: GitFixture, branch: string): Promise<string[]> {
  return (await repo.git('ls-tree', '-r', '--name-only', branch)).split('\n');
}

/** The events of the demo PRD's runs, oldest first. */
export async function readEvents(project: LoopProject): Promise<Event[]> {
  return (await project.read('.ralph/runs/demo/events.jsonl'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Event);
}
