/**
 * Ctrl-C and SIGTERM with the real Claude Code: an interrupt is never the
 * story's fault, whatever phase it lands in, and the count at the end is
 * what really passed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { featSubjects, type LoopProject } from '../support/loop-project.js';
import { processesIn } from '../support/processes.js';
import { runEvents as events, slowGate, slowMiddleStory, until } from '../support/stop-scenarios.js';
import { storyIdOf } from '../support/story-script.js';

let project: LoopProject | undefined;
afterEach(async () => {
  if (project) for (const p of processesIn(project.repo.dir)) process.kill(p.pid, 'SIGKILL');
  await project?.cleanup();
  project = undefined;
});

describe('interrupts', () => {
  it.each([
    ['SIGTERM', ['SIGTERM']],
    ['Ctrl-C twice', ['SIGINT', 'SIGINT']],
  ] as const)('%s during a gate rolls the attempt back without counting it', async (_, signals) => {
    project = await slowGate();
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
    project = await slowMiddleStory();
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
