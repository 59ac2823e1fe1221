/** The project every fault cycle runs: three stories, one failing its first attempt, and a short gate. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import type { Turn } from '../support/model-script.js';
import { OVERLAP_FILES, overlapAgent, promptsOnly } from '../support/overlap-prds.js';
import { fail, implement } from '../support/story-script.js';

/** How a cycle runs the project: the sequential loop in place or in a worktree, or `--parallel 3`. */
export type WorkspaceMode = 'in-place' | 'worktree' | 'parallel';

export const STORIES = [
  { id: 'US-001', title: 'Add greeting', file: 'greet.txt', content: 'hello\n' },
  { id: 'US-002', title: 'Add farewell', file: 'bye.txt', content: 'bye\n' },
  { id: 'US-003', title: 'Add shout', file: 'shout.txt', content: 'HEY\n' },
] as const;

/**
 * `slowStartMs` delays every attempt's first model reply: an agent whose
 * ralph was killed right after spawning it is then still running when the
 * next run recovers, as a real agent mid-thought would be.
 */
export function createCampaignProject(options: { slowStartMs?: number } = {}): Promise<LoopProject> {
  const slow = (turns: Turn[]): Turn[] =>
    turns.map((t, i) => (i === 0 && options.slowStartMs ? { ...t, delayMs: options.slowStartMs } : t));
  const [greet, farewell, shout] = STORIES.map((s) => slow(implement(s.id, s.title, s.file, s.content)));
  return createLoopProject(
    {
      '.ralph/prds/demo/prd.json': prdJson(STORIES.map(({ id, title }) => ({ id, title }))),
      // A gate long enough for a kill to land inside it.
      '.ralph/config.yaml': 'checks:\n  - sleep 0.4\n',
    },
    {
      'US-001': [greet ?? []],
      // A failed first attempt: every cycle rolls back once, and kills can land around it.
      'US-002': [slow(fail('US-002', 'the farewell needs a second look')), farewell ?? []],
      'US-003': [shout ?? []],
    },
  );
}

/**
 * The parallel cycles' project: three stories at once that all append a
 * line to REGISTRY.md, so the two that land after the first lose the race
 * and are resolved by their agent; answers take a while, and the gate
 * sleeps, so that kills land inside agents, resolutions and landings.
 */
export const PARALLEL_STORIES = [
  { id: 'US-001', title: 'Add login' },
  { id: 'US-002', title: 'Add billing' },
  { id: 'US-003', title: 'Add search' },
] as const;

export function createParallelCampaignProject(options: { slowStartMs?: number } = {}): Promise<LoopProject> {
  const stories = [...PARALLEL_STORIES];
  return createLoopProject(
    {
      '.ralph/.gitignore': 'runs/\nworktrees/\n',
      '.ralph/prds/demo/prd.json': prdJson(stories),
      '.ralph/config.yaml': `checks:\n  - sleep 0.4\n  - "${NO_CONFLICT_MARKERS}"\n`,
      ...OVERLAP_FILES.append,
    },
    promptsOnly(stories),
    {
      wrap: overlapAgent('append', stories, {
        delayMs: 300,
        ...(options.slowStartMs ? { firstDelayMs: options.slowStartMs } : {}),
      }),
    },
  );
}

/** The gate that no tracked file holds a conflict marker. */
export const NO_CONFLICT_MARKERS = "! git grep -q -E '^(<<<<<<<|>>>>>>>)'";

/** `ralph run` arguments for the mode. */
export const runArgs = (mode: WorkspaceMode): string[] => [
  'demo',
  '--headless',
  ...(mode === 'in-place' ? ['--no-worktree'] : []),
  ...(mode === 'parallel' ? ['--parallel', '3'] : []),
];

/** Files under `dir` (recursively, .git folders aside) named like ralph's temporary files. */
export async function temporariesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => p.includes('.ralph-tmp-') && !p.includes('/.git/'));
}
