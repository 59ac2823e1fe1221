/**
 * The iteration limit is per session (`-n`, else the stories left + 5), and
 * iteration numbers go on over every session of a run. Every surface says the
 * same: the start line's limit, each `iteration i/last` line, the last line's
 * count, and `ralph status` (every session's iterations) — sequential, resumed
 * and `--parallel`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopProject, prdJson } from '../support/loop-project.js';
import { parallelProject } from '../support/parallel-project.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';

let project: LoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const work = (id: string) => implement(id, `Story ${id}`, `${id}.txt`, `${id}\n`);
const STORIES = ['S-1', 'S-2', 'S-3'];
const PLAN = Object.fromEntries(STORIES.map((id) => [id, [work(id)]]));
const PRD = prdJson(STORIES.map((id) => ({ id, title: `Story ${id}` })));

/** The `N/last` of every `iteration N/last:` line, in order. */
const iterationLines = (out: string): string[] =>
  [...out.matchAll(/^(?:\[[^\]]*\]\s*)*iteration (\d+\/\d+):/gm)].map((m) => m[1] ?? '');

async function statusIterations(p: LoopProject): Promise<string> {
  const status = await runRalph(['status', 'demo'], { cwd: p.repo.dir });
  return /run: (\d+ iterations?)/.exec(status.stdout)?.[1] ?? status.stdout;
}

describe('the iteration limit on every surface', () => {
  it('sequential, then resumed: the limit is per session, the numbers go on, every count agrees', async () => {
    project = await parallelProject(PRD, PLAN);
    const first = await project.run(['demo', '--headless', '-n', '1']);
    expect(first.exitCode, first.stdout + first.stderr).toBe(3);
    expect(first.stdout).toMatch(/3 stories left, .*up to 1 iteration\b/);
    expect(iterationLines(first.stdout)).toEqual(['1/1']);
    expect(first.stdout).toMatch(/reached the limit of 1 iteration/);
    expect(first.stdout).toMatch(/passed, 1 iteration, /);
    expect(await statusIterations(project)).toBe('1 iteration');

    // Resumed with the default: 2 stories left + 5 = 7 this session, numbered on from 1.
    const second = await project.run(['demo', '--headless']);
    expect(second.exitCode, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toMatch(/demo \(Demo\): 2 stories left, .*up to iteration 8 \(7 this session\)/);
    expect(iterationLines(second.stdout)).toEqual(['2/8', '3/8']);
    expect(second.stdout).toMatch(/2 iterations this session, 3 in all/);
    expect(await statusIterations(project)).toBe('3 iterations');
  }, 240_000);

  it('--parallel: every lane counts against one limit, numbered as the status counts', async () => {
    project = await parallelProject(PRD, PLAN);
    const first = await project.run(['demo', '--headless', '--parallel', '3', '-n', '2']);
    expect(first.exitCode, first.stdout + first.stderr).toBe(3);
    expect(first.stdout).toMatch(/up to 2 iterations\b/);
    expect(iterationLines(first.stdout).sort()).toEqual(['1/2', '2/2']);
    expect(first.stdout).toMatch(/reached the limit of 2 iterations — 2\/3 passed, 2 iterations, /);
    expect(await statusIterations(project)).toBe('2 iterations');

    // Resumed in parallel: 1 story left + 5 this session, numbers on from 2.
    const second = await project.run(['demo', '--headless', '--parallel', '3']);
    expect(second.exitCode, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toMatch(/up to iteration 8 \(6 this session\)/);
    expect(iterationLines(second.stdout)).toEqual(['3/8']);
    expect(second.stdout).toMatch(/1 iteration this session, 3 in all/);
    expect(await statusIterations(project)).toBe('3 iterations');
  }, 240_000);
});
