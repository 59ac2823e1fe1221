/**
 * Ctrl-C and SIGTERM with the real Claude Code: an interrupt is never the
 * story's fault, whatever phase it lands in, and the count at the end is
 * what really passed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopProject, featSubjects, type LoopProject, prdJson } from '../support/loop-project.js';
import { processesIn } from '../support/processes.js';
import { implement, storyIdOf } from '../support/story-script.js';

const PRD = '.ralph/prds/demo/prd.json';

let project: LoopProject | undefined;
afterEach(async () => {
  if (project) for (const p of processesIn(project.repo.dir)) process.kill(p.pid, 'SIGKILL');
  await project?.cleanup();
  project = undefined;
});

type Event = { type: string; [key: string]: unknown };

async function events(p: LoopProject): Promise<Event[]> {
  const text = await readFile(join(p.repo.dir, '.ralph/runs/demo/events.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Event);
}

async function until(what: () => Promise<boolean> | boolean, label: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(await what())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await sleep(50);
  }
}

describe('interrupts', () => {
  it.each([
    ['SIGTERM', ['SIGTERM']],
    ['Ctrl-C twice', ['SIGINT', 'SIGINT']],
  ] as const)('%s during a gate rolls the attempt back without counting it', async (_, signals) => {
    project = await createLoopProject(
      {
        [PRD]: prdJson([{ id: 'US-001', title: 'Add greeting' }]),
        '.ralph/config.yaml': 'checks:\n  - sleep 60\n',
      },
      { 'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')] },
    );
    const p = project;
    let pid = 0;
    const run = p.run(['demo', '--headless', '--no-worktree', '--max-retries', '1'], {
      onSpawn: (ralph) => {
        pid = ralph;
      },
    });
    await until(async () => (await events(p)).some((e) => e.type === 'check-started'), 'the gate');
    for (const signal of signals) {
      process.kill(pid, signal);
      await sleep(200);
    }
    const result = await run;
    expect(result.exitCode).toBe(130);
    const all = await events(p);
    expect(all.filter((e) => e.type === 'attempt-failed' || e.type === 'story-parked')).toEqual([]);
    expect(all.at(-1)).toMatchObject({ type: 'run-finished', reason: 'interrupted', passed: 0 });
    const state = JSON.parse(await p.read('.ralph/runs/demo/state.json')) as {
      stories: Record<string, { attempts: number; parked?: boolean; lastFailure?: unknown }>;
    };
    expect(state.stories['US-001']).toMatchObject({ attempts: 0 });
    expect(state.stories['US-001']?.parked).toBeUndefined();
    expect(state.stories['US-001']?.lastFailure).toBeUndefined();
    expect(await featSubjects(p.repo)).toEqual([]);
    expect(processesIn(p.repo.dir)).toEqual([]);
  });

  it('Ctrl-C once counts the story that passed while the run was stopping', async () => {
    const slow = implement('US-002', 'Add farewell', 'bye.txt', 'bye\n').map((t, i) =>
      i === 0 ? { ...t, delayMs: 3_000 } : t,
    );
    project = await createLoopProject(
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
    const p = project;
    let pid = 0;
    const run = p.run(['demo', '--headless', '--no-worktree'], {
      onSpawn: (ralph) => {
        pid = ralph;
      },
    });
    await until(() => p.server.modelCalls().some((r) => storyIdOf(r) === 'US-002'), 'US-002');
    process.kill(pid, 'SIGINT');
    const result = await run;
    expect(result.exitCode).toBe(130);
    expect(result.stdout).toMatch(/✓ US-002 passed/);
    expect(result.stdout).toMatch(/stopped — 2\/3 passed/);
    expect((await events(p)).at(-1)).toMatchObject({ type: 'run-finished', passed: 2, total: 3 });
    expect(await featSubjects(p.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
    ]);
  });
});
