/**
 * `ralph run --parallel` killed with SIGKILL at different moments (from
 * outside while agents run or a landing's gate runs, and from inside at the
 * named points of src/state/fault-point.ts), then run again: every story
 * lands once, and nothing of the dead run is left (no story worktree,
 * branch or process).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopProject, prdJson } from '../support/loop-project.js';
import type { Turn } from '../support/model-script.js';
import { landedOrder, parallelProject } from '../support/parallel-project.js';
import { processesIn } from '../support/processes.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement, storyIdOf } from '../support/story-script.js';

let project: LoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const STORIES = [
  { id: 'P-1', title: 'First' },
  { id: 'P-2', title: 'Second' },
  { id: 'P-3', title: 'Third', dependsOn: ['P-1'] },
];
const work = (id: string, title: string): Turn[] => implement(id, title, `${id}.txt`, `${id}\n`);
/** The same work, its first answer held back: the agent is mid-conversation for a while. */
const slow = (id: string, title: string, ms: number): Turn[] =>
  work(id, title).map((t, i) => (i === 0 ? { ...t, delayMs: ms } : t));

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Starts `ralph run`, kills it with SIGKILL once `moment` holds, then runs it again to the end. */
async function killThenRerun(
  p: LoopProject,
  args: string[],
  moment: () => boolean | Promise<boolean>,
  beforeKill: () => Promise<void> = async () => {},
  rerunArgs = args,
) {
  let pid = 0;
  const first = p.run(args, {
    onSpawn: (spawned) => {
      pid = spawned;
    },
  });
  await until('the moment to kill', moment);
  await beforeKill();
  process.kill(pid, 'SIGKILL');
  expect((await first).signal).toBe('SIGKILL');
  return p.run(rerunArgs);
}

async function expectEverythingLandedOnce(p: LoopProject): Promise<void> {
  const order = await landedOrder(p.repo, 'ralph/demo');
  expect([...order].sort()).toEqual(['P-1', 'P-2', 'P-3']);
  expect(order.indexOf('P-1')).toBeLessThan(order.indexOf('P-3'));
  const feats = (await p.repo.git('log', '--format=%s', 'main..ralph/demo'))
    .split('\n')
    .filter((s) => s.startsWith('feat:'));
  expect(feats.sort()).toEqual(['feat: P-1 - First', 'feat: P-2 - Second', 'feat: P-3 - Third']);
  const prd = JSON.parse(await p.repo.git('show', 'ralph/demo:.ralph/prds/demo/prd.json')) as {
    userStories: { passes: boolean }[];
  };
  expect(prd.userStories.map((s) => s.passes)).toEqual([true, true, true]);
  // Nothing of either run is left: no story branch, no story worktree, no process.
  expect(await p.repo.git('branch', '--list', 'ralph-stories/*')).toBe('');
  const worktrees = (await p.repo.git('worktree', 'list', '--porcelain'))
    .split('\n')
    .filter((l) => l.startsWith('worktree '));
  expect(worktrees).toHaveLength(2);
  const stories = join(p.repo.dir, '.ralph', 'runs', 'demo', 'stories');
  expect(existsSync(stories) ? await readdir(stories) : []).toEqual([]);
  expect(
    await p.repo.git('-C', join(p.repo.dir, '.ralph', 'worktrees', 'demo'), 'status', '--porcelain'),
  ).toBe('');
  expect(processesIn(p.repo.dir)).toEqual([]);
  const state = JSON.parse(
    await readFile(join(p.repo.dir, '.ralph', 'runs', 'demo', 'state.json'), 'utf8'),
  ) as {
    running?: unknown[];
    integrating?: unknown;
  };
  expect(state.running ?? []).toEqual([]);
  expect(state.integrating).toBeUndefined();
}

describe('ralph run --parallel, killed with SIGKILL', () => {
  it('while agents run: they are stopped, their attempts rolled back, and a plain rerun lands everything once', async () => {
    project = await parallelProject(prdJson(STORIES), {
      // Held back far longer than the test takes to look and kill: the agents are surely mid-attempt.
      'P-1': [slow('P-1', 'First', 60_000), work('P-1', 'First')],
      'P-2': [slow('P-2', 'Second', 60_000), work('P-2', 'Second')],
      'P-3': [work('P-3', 'Third')],
    });
    const p = project;
    const asked = (id: string) => p.server.modelCalls().some((r) => storyIdOf(r) === id);
    const rerun = await killThenRerun(
      p,
      ['demo', '--headless', '--parallel', '2'],
      () => asked('P-1') && asked('P-2'),
      async () => {
        // While it runs, `ralph status` lists the stories in flight and their workers.
        const status = await runRalph(['status', 'demo', '--json'], { cwd: p.repo.dir });
        const { workers } = JSON.parse(status.stdout) as { workers: { id: string; worker: number }[] };
        expect(workers.map((r) => r.id).sort()).toEqual(['P-1', 'P-2']);
        expect(new Set(workers.map((r) => r.worker)).size).toBe(2);
        const text = await runRalph(['status', 'demo'], { cwd: p.repo.dir });
        expect(text.stdout).toMatch(/running: P-\d on worker \d \(attempt 1, for [^)]+\), P-\d on worker \d/);
        expect(text.stdout).toMatch(/● P-1 {2}First {2}\(attempt 1, running .*, worker \d\)/);
      },
      // Run again without --parallel: what the killed parallel run left is still recovered.
      ['demo', '--headless'],
    );
    expect(rerun.stderr).toBe('');
    expect(rerun.exitCode).toBe(0);
    expect(rerun.stdout).toMatch(/took over a stale lock/);
    expect(rerun.stdout).toMatch(/the interrupted attempt at P-1 was rolled back/);
    expect(rerun.stdout).toMatch(/the interrupted attempt at P-2 was rolled back/);
    // The killed attempts did not count: each story passed on its first counted attempt.
    expect(rerun.stdout).toMatch(/✓ P-1 passed on attempt 1/);
    await expectEverythingLandedOnce(p);
  });

  it('while a story is being landed: the landing is undone and redone from its verified branch, not re-attempted', async () => {
    // Slow only while landing (the PRD checkout is detached then), and only the first time.
    const gate =
      'if [ "$(git rev-parse --abbrev-ref HEAD)" = HEAD ] && mkdir "$(git rev-parse --git-common-dir)/slow-landing" 2>/dev/null; then sleep 120; fi';
    project = await parallelProject(
      prdJson(STORIES),
      {
        'P-1': [work('P-1', 'First')],
        'P-2': [work('P-2', 'Second')],
        'P-3': [work('P-3', 'Third')],
      },
      { gates: [gate] },
    );
    const p = project;
    const state = join(p.repo.dir, '.ralph', 'runs', 'demo', 'state.json');
    // Made by the gate as it starts to hold the landing up.
    const slowMark = join(p.repo.dir, '.git', 'slow-landing');
    let landing = '';
    const rerun = await killThenRerun(p, ['demo', '--headless', '--parallel', '2'], async () => {
      if (!existsSync(state)) return false;
      const saved = JSON.parse(await readFile(state, 'utf8')) as {
        integrating?: { storyId: string; token?: string };
      };
      landing = saved.integrating?.storyId ?? '';
      return saved.integrating?.token !== undefined && existsSync(slowMark);
    });
    expect(rerun.stderr).toBe('');
    expect(rerun.exitCode).toBe(0);
    expect(rerun.stdout).toContain(`the unfinished landing of ${landing} was undone`);
    expect(rerun.stdout).toContain(`${landing} was verified before the run stopped; it lands first`);
    // Its agent was not asked again: the verified branch survived the crash and landed.
    expect(p.stories.prompts(landing)).toHaveLength(1);
    await expectEverythingLandedOnce(p);
  });
});

/**
 * Moments no outside timing hits reliably, each reached by ralph itself
 * (`RALPH_FAULT_AT=<point>#<n>`): P-1 and P-2 run at once, P-3 waits on P-1,
 * so the second landing rebases onto a tip that moved. `npm test` kills at
 * the moments marked `ci`; RALPH_PARALLEL_KILL_POINTS=all at every one.
 */
const KILL_POINTS: { point: string; ci: boolean }[] = [
  // A story's worktree made, its attempt not yet recorded.
  { point: 'story-checkout-made#2', ci: false },
  // Both agents started, the second one's pid not yet in the run state.
  { point: 'agent-spawned#2', ci: true },
  { point: 'agent-exited#1', ci: false },
  // A verdict on its story branch, not yet in the run state.
  { point: 'story-verified#1', ci: true },
  { point: 'landing-detached#1', ci: false },
  { point: 'landing-rebased#2', ci: true },
  // The pass committed on the detached PRD checkout, the branch not yet moved.
  { point: 'landing-recorded#1', ci: true },
  // The PRD branch moved, the checkout not yet back on it.
  { point: 'landing-moved#2', ci: true },
  { point: 'atomic-write:state.json#6', ci: false },
];
const killPoints = KILL_POINTS.filter((k) => k.ci || process.env.RALPH_PARALLEL_KILL_POINTS === 'all').map(
  (k) => k.point,
);

describe('ralph run --parallel, killed at a named moment', () => {
  it.each(killPoints)('at %s: the rerun lands every story once and leaves nothing behind', async (point) => {
    project = await parallelProject(prdJson(STORIES), {
      'P-1': [work('P-1', 'First')],
      'P-2': [work('P-2', 'Second')],
      'P-3': [work('P-3', 'Third')],
    });
    const args = ['demo', '--headless', '--parallel', '2'];
    const killed = await project.run(args, { env: { RALPH_FAULT_AT: point } });
    expect(killed.signal).toBe('SIGKILL');
    const rerun = await project.run(args);
    expect(rerun.stderr).toBe('');
    expect(rerun.exitCode).toBe(0);
    expect(rerun.stdout).toMatch(/took over a stale lock/);
    await expectEverythingLandedOnce(project);
  });
});
