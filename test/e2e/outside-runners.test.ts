/**
 * A refused key stops every runner the same way, with the real Claude Code
 * against a server answering 401: `--parallel`, a goal run and a `--worker`
 * job each exit 4 after their first attempt with the one sentence, and
 * count, park or push nothing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGoalProject, type GoalProject, twoFilePlan } from '../support/goal-project.js';
import { type LoopProject, prdJson } from '../support/loop-project.js';
import type { Reply } from '../support/model-script.js';
import { parallelProject, readEvents } from '../support/parallel-project.js';
import { createEngine, type Engine } from '../support/scale-out-engine.js';
import { implement } from '../support/story-script.js';

let project: LoopProject | GoalProject | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.cleanup();
  await project?.cleanup();
  engine = undefined;
  project = undefined;
});

const REFUSED: Reply = { error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } };
const STORIES = [
  { id: 'P-1', title: 'Story one' },
  { id: 'P-2', title: 'Story two' },
  { id: 'P-3', title: 'Story three' },
];
const PLAN = Object.fromEntries(STORIES.map((s) => [s.id, [implement(s.id, s.title, `${s.id}.txt`, 'x\n')]]));
const SENTENCE =
  /claude cannot authenticate: .*; run `claude` and log in with \/login, or set ANTHROPIC_API_KEY/;
const counted = (all: { type: string }[]) =>
  all.filter((e) => e.type === 'attempt-failed' || e.type === 'story-parked');

describe('a refused key in every runner', () => {
  it('--parallel: every worker stopped, exit 4, nothing counted', async () => {
    project = await parallelProject(prdJson(STORIES), PLAN, { wrap: () => () => REFUSED });
    const result = await project.run(['demo', '--headless', '--parallel', '2']);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toMatch(SENTENCE);
    const events = await readEvents(project);
    expect(events.filter((e) => e.type === 'iteration-started').length).toBeLessThanOrEqual(2);
    expect(events.at(-1)).toMatchObject({ type: 'run-finished', reason: 'agent-unusable', exitCode: 4 });
    expect(counted(events)).toEqual([]);
    const state = JSON.parse(await project.read('.ralph/runs/demo/state.json')) as {
      stories: Record<string, { attempts: number }>;
    };
    for (const s of Object.values(state.stories)) expect(s.attempts).toBe(0);
  });

  it('a goal run: exit 4 after its first iteration, which is not counted', async () => {
    const goal = await createGoalProject(twoFilePlan(), {}, { wrap: () => () => REFUSED });
    project = goal;
    const result = await goal.run(['Write two files', '--headless', '--no-worktree']);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toMatch(SENTENCE);
    const events = (await readFile(join(goal.repo.dir, '.ralph/runs/write-two-files/events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(events.filter((e) => e.type === 'iteration-started')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'run-finished', reason: 'agent-unusable', exitCode: 4 });
    expect(counted(events)).toEqual([]);
    expect((await goal.progress('write-two-files')).iterations).toEqual([]);
  });

  it('a --worker job: exit 4, nothing pushed, the story planned again', async () => {
    project = await parallelProject(prdJson(STORIES), PLAN, { wrap: () => () => REFUSED });
    engine = await createEngine(project);
    const job = await engine.startWorker('P-1');
    const result = await job.done;
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toMatch(SENTENCE);
    expect(result.stdout).toMatch(/P-1 was not worked: .*nothing pushed or counted/);
    expect(await engine.remoteRefs('refs/heads/ralph-stories/*')).toEqual([]);
    expect((await engine.plan(3)).ids).toContain('P-1');
  });
});
