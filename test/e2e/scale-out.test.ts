/**
 * The three roles as jobs on different machines, with a bare repository as
 * the shared `origin`: `ralph plan` -> three `ralph run --story --worker`
 * at once, each in its own clone, with the real Claude Code against the
 * scripted server -> two `ralph integrate` started together; repeated until
 * the plan is empty. One worker is killed mid-attempt (kill -9 of its
 * process group): its story is only planned again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopProject, prdJson } from '../support/loop-project.js';
import type { Turn } from '../support/model-script.js';
import { landedOrder, parallelProject } from '../support/parallel-project.js';
import { processesIn } from '../support/processes.js';
import { createEngine, type Engine, git, type Integrated } from '../support/scale-out-engine.js';
import { fail, implement, storyIdOf } from '../support/story-script.js';

let project: LoopProject | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.cleanup();
  await project?.cleanup();
  engine = undefined;
  project = undefined;
});

const STORIES = [
  { id: 'A-1', title: 'Alpha one' },
  { id: 'B-1', title: 'Beta one' },
  { id: 'C-1', title: 'Gamma one' },
  { id: 'A-2', title: 'Alpha two', dependsOn: ['A-1'] },
  { id: 'B-2', title: 'Beta two', dependsOn: ['B-1'] },
];
const work = (id: string, title: string): Turn[] =>
  implement(id, title, `${id}.txt`, `${id}\n`, `\n<ralph>LEARN: ${id} taught us something</ralph>`);

async function until(what: string, check: () => boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('a PRD as jobs on other machines, origin as the shared state', () => {
  it('lands every story exactly once in dependency order, leaves no story branch, and re-plans a killed worker', async () => {
    project = await parallelProject(
      prdJson(STORIES),
      {
        ...Object.fromEntries(STORIES.map((s) => [s.id, [work(s.id, s.title)]])),
        // The first attempt at C-1 is held back far longer than the test takes to kill its worker.
        'C-1': [
          work('C-1', 'Gamma one').map((t, i) => (i === 0 ? { ...t, delayMs: 120_000 } : t)),
          work('C-1', 'Gamma one'),
        ],
      },
      { gates: ['test -f README.md'] },
    );
    engine = await createEngine(project);
    const p = project;
    const e = engine;
    const plans: string[][] = [];
    const landings: Integrated[][] = [];
    let killed = false;

    for (let round = 1; round <= 5; round++) {
      const plan = await e.plan(3);
      plans.push(plan.ids);
      if (plan.ids.length === 0) {
        expect(plan.complete).toBe(true);
        break;
      }
      const workers = await Promise.all(plan.ids.map((id) => e.startWorker(id)));
      const victim = killed ? undefined : workers.find((w) => w.storyId === 'C-1');
      if (victim) {
        await until('C-1 to be mid-attempt', () => p.server.modelCalls().some((r) => storyIdOf(r) === 'C-1'));
        await e.killWorker(victim);
        killed = true;
      }
      const results = await Promise.all(workers.map((w) => w.done));
      for (const [i, w] of workers.entries()) {
        if (w === victim) {
          expect(results[i]?.signal).toBe('SIGKILL');
          continue;
        }
        expect(results[i]?.stderr).toBe('');
        expect(results[i]?.exitCode).toBe(0);
        expect(results[i]?.stdout).toMatch(new RegExp(`✓ ${w.storyId} verified \\(attempt 1\\) and pushed`));
      }
      if (victim) {
        // The killed worker pushed nothing: its story has no branch on origin.
        expect(await e.remoteRefs('refs/heads/ralph-stories/demo/C-1')).toEqual([]);
      }
      // Two integrators at once: between them every verified story lands, none twice.
      const verified = workers.filter((w) => w !== victim).map((w) => w.storyId);
      const both = await Promise.all([e.integrate(), e.integrate()]);
      for (const { result } of both) {
        expect(result.stderr).toBe('');
        expect(result.exitCode).toBe(0);
      }
      const [one, two] = both.map((b) => b.outcome);
      landings.push([one as Integrated, two as Integrated]);
      const landedNow = [...(one?.landed ?? []), ...(two?.landed ?? [])];
      expect(landedNow.sort()).toEqual([...verified].sort());
    }

    // The killed worker's story came back in the next plan, and the plan ended empty.
    expect(killed).toBe(true);
    expect(plans[0]?.sort()).toEqual(['A-1', 'B-1', 'C-1']);
    expect(plans[1]?.sort()).toEqual(['A-2', 'B-2', 'C-1']);
    expect(plans.at(-1)).toEqual([]);

    const order = await landedOrder({ git: (...a: string[]) => git(e.origin, ...a) }, 'ralph/demo');
    expect([...order].sort()).toEqual(STORIES.map((s) => s.id).sort());
    expect(order.indexOf('A-1')).toBeLessThan(order.indexOf('A-2'));
    expect(order.indexOf('B-1')).toBeLessThan(order.indexOf('B-2'));
    const feats = (await git(e.origin, 'log', '--format=%s', 'main..ralph/demo'))
      .split('\n')
      .filter((s) => s.startsWith('feat:'));
    expect(feats.sort()).toEqual(STORIES.map((s) => `feat: ${s.id} - ${s.title}`).sort());
    const prd = JSON.parse(await git(e.origin, 'show', 'ralph/demo:.ralph/prds/demo/prd.json')) as {
      userStories: { id: string; passes: boolean }[];
    };
    expect(prd.userStories.every((s) => s.passes)).toBe(true);
    const progress = await git(e.origin, 'show', 'ralph/demo:.ralph/prds/demo/progress.md');
    for (const s of STORIES) expect(progress).toContain(`${s.id} taught us something`);
    // No story branch is left on origin, and the last integration asks for the pull request.
    expect(await e.remoteRefs('refs/heads/ralph-stories/*')).toEqual([]);
    expect(landings.at(-1)?.map((l) => l.next)).toEqual(['pull-request', 'pull-request']);
    // Nothing of any job is still running, the killed one's agent included.
    expect(processesIn(e.root)).toEqual([]);
  });

  it('verified work that conflicts on landing and cannot be resolved is requeued on origin, not counted, and redone from the new tip; a story out of retries is parked on origin', async () => {
    const stories = [
      { id: 'X-1', title: 'Ex' },
      { id: 'Y-1', title: 'Why' },
      { id: 'Z-1', title: 'Zed' },
    ];
    project = await parallelProject(
      prdJson(stories),
      {
        // Both first attempts write the same new file differently: whichever lands second conflicts,
        // and its agent's resolution (the next session) commits the conflict markers: refused. Its redo builds on what landed.
        'X-1': [implement('X-1', 'Ex', 'shared.txt', 'from X\n'), implement('X-1', 'Ex', 'x.txt', 'X\n')],
        'Y-1': [implement('Y-1', 'Why', 'shared.txt', 'from Y\n'), implement('Y-1', 'Why', 'y.txt', 'Y\n')],
        'Z-1': [fail('Z-1', 'the API it needs does not exist')],
      },
      { files: { '.ralph/config.yaml': 'limits:\n  maxRetries: 2\n' } },
    );
    engine = await createEngine(project);
    const e = engine;

    const first = await e.plan(3);
    expect(first.ids.sort()).toEqual(['X-1', 'Y-1', 'Z-1']);
    const workers = await Promise.all(first.ids.map((id) => e.startWorker(id)));
    const done = new Map(await Promise.all(workers.map(async (w) => [w.storyId, await w.done] as const)));
    // Z-1 used its two attempts in its job and is parked on origin, with a setback on its branch.
    expect(done.get('Z-1')?.exitCode).toBe(1);
    expect(done.get('Z-1')?.stdout).toMatch(
      /Z-1 parked on origin after 2 attempts: The agent reported FAIL: the API it needs does not exist/,
    );
    const parkedTip = await git(e.origin, 'log', '-1', '--format=%s', 'ralph-stories/demo/Z-1');
    expect(parkedTip).toBe('ralph: Z-1 failed');
    expect(done.get('X-1')?.exitCode).toBe(0);
    expect(done.get('Y-1')?.exitCode).toBe(0);

    // One of X-1 and Y-1 lands; the other conflicts, its resolution is refused, and a requeue replaces its verdict.
    const both = await Promise.all([e.integrate(), e.integrate()]);
    const landed = both.flatMap((b) => b.outcome.landed);
    const rejected = both.flatMap((b) => b.outcome.rejected);
    expect(landed).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect([...landed, ...rejected].sort()).toEqual(['X-1', 'Y-1']);
    const loser = rejected[0] ?? '';
    expect(await git(e.origin, 'log', '-1', '--format=%s', `ralph-stories/demo/${loser}`)).toBe(
      `ralph: ${loser} requeued`,
    );
    const requeue = JSON.parse(
      (await git(e.origin, 'log', '-1', '--format=%b', `ralph-stories/demo/${loser}`)).trim(),
    ) as { attempts: number; requeued: boolean; requeues: number; parked: boolean };
    expect(requeue).toMatchObject({ attempts: 0, requeued: true, requeues: 1, parked: false });
    expect(await git(e.origin, 'show', 'ralph/demo:shared.txt')).not.toContain('<<<<<<<');

    // The loser is planned again (not parked: one attempt of two); Z-1 is not.
    const second = await e.plan(3);
    expect(second.ids).toEqual([loser]);
    expect(second.parked).toEqual(['Z-1']);
    const retry = await e.startWorker(loser);
    const retried = await retry.done;
    expect(retried.exitCode).toBe(0);
    // Attempt 1 again: a race counts nothing; the prompt said what conflicted and what landed.
    expect(retried.stdout).toMatch(new RegExp(`✓ ${loser} verified \\(attempt 1\\)`));
    expect(project.stories.prompts(loser).at(-1)).toContain('## Your earlier work did not land');
    const prompt = project.stories.prompts(loser).at(-1) ?? '';
    expect(prompt).toContain('`shared.txt`');
    expect(prompt).toContain(`${landed[0]} landed on the PRD branch`);

    const last = await e.integrate();
    expect(last.outcome.landed).toEqual([loser]);
    // Z-1 is parked: nothing left to plan or land, so no new round and no pull request.
    expect(last.outcome.next).toBe('stop');
    expect((await e.plan(3)).ids).toEqual([]);
    expect(await e.remoteRefs('refs/heads/ralph-stories/*')).toEqual(['refs/heads/ralph-stories/demo/Z-1']);
    const order = await landedOrder({ git: (...a: string[]) => git(e.origin, ...a) }, 'ralph/demo');
    expect(order.sort()).toEqual(['X-1', 'Y-1']);
  });
});
