/**
 * The projects the stop tests run: the Ctrl-C and SIGTERM tests and the web
 * page's Pause and Stop buttons stop the same runs of the real Claude Code,
 * whichever way the request comes.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLoopProject, type LoopProject, prdJson } from './loop-project.js';
import { implement } from './story-script.js';

export const PRD = '.ralph/prds/demo/prd.json';

export type RecordedEvent = { type: string; [key: string]: unknown };

/** The run `demo`'s `events.jsonl` so far. */
export async function runEvents(p: LoopProject): Promise<RecordedEvent[]> {
  const text = await readFile(join(p.repo.dir, '.ralph/runs/demo/events.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as RecordedEvent);
}

export async function until(what: () => Promise<boolean> | boolean, label: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(await what())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await sleep(50);
  }
}

/** Three stories; the agent takes 3 s over US-002's first turn, time enough to ask the run to stop. */
export function slowMiddleStory(): Promise<LoopProject> {
  const slow = implement('US-002', 'Add farewell', 'bye.txt', 'bye\n').map((t, i) =>
    i === 0 ? { ...t, delayMs: 3_000 } : t,
  );
  return createLoopProject(
    {
      [PRD]: prdJson([
        { id: 'US-001', title: 'Add greeting' },
        { id: 'US-002', title: 'Add farewell' },
        { id: 'US-003', title: 'Add shout' },
      ]),
    },
    {
      'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
      'US-002': [slow],
      'US-003': [implement('US-003', 'Add shout', 'shout.txt', 'HEY\n')],
    },
  );
}

/** One story whose gate (`sleep 60`) outlasts any test: stopped during it, or not at all. */
export function slowGate(): Promise<LoopProject> {
  return createLoopProject(
    {
      [PRD]: prdJson([{ id: 'US-001', title: 'Add greeting' }]),
      '.ralph/config.yaml': 'checks:\n  - sleep 60\n',
    },
    { 'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')] },
  );
}
