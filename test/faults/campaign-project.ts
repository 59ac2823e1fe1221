/** The project every fault cycle runs: three stories, one failing its first attempt, and a short gate. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import type { Turn } from '../support/model-script.js';
import { fail, implement } from '../support/story-script.js';

export type WorkspaceMode = 'in-place' | 'worktree';

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

/** `ralph run` arguments for the mode. */
export const runArgs = (mode: WorkspaceMode): string[] => [
  'demo',
  '--headless',
  ...(mode === 'in-place' ? ['--no-worktree'] : []),
];

/** Files under `dir` (recursively, .git folders aside) named like ralph's temporary files. */
export async function temporariesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => p.includes('.ralph-tmp-') && !p.includes('/.git/'));
}
