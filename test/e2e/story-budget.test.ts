/**
 * `--max-cost-per-story` (config `limits.maxCostPerStory`): a story whose
 * attempts together reach the budget is parked with that reason, before its
 * retries are used up, in the sequential and the parallel runner; a story
 * that spent it in an earlier run is parked without another attempt, and
 * the rest of the PRD goes on. The real Claude Code prices the scripted
 * model's usage.
 */
import { describe, expect, it, vi } from 'vitest';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import type { Turn } from '../support/model-script.js';
import {
  droppingResolution,
  OVERLAP_FILES,
  type OverlapKind,
  overlapAgent,
  promptsOnly,
} from '../support/overlap-prds.js';
import { parallelProject, readEvents } from '../support/parallel-project.js';
import { implement } from '../support/story-script.js';
import { terminalTests } from '../tui/terminal.js';

vi.setConfig({ testTimeout: 240_000 });

const terminals = terminalTests();

const STORIES = [
  { id: 'US-001', title: 'Costly' },
  { id: 'US-002', title: 'Cheap' },
];
/** An attempt that fails, having spent on a large prompt. */
const COSTLY: Turn[] = [{ text: '<ralph>FAIL US-001: not yet</ralph>', usage: { inputTokens: 60_000 } }];
const PLAN = {
  'US-001': [COSTLY],
  'US-002': [implement('US-002', 'Cheap', 'cheap.txt', 'cheap\n')],
};

const storyCost = async (project: LoopProject, id: string): Promise<number> =>
  JSON.parse(await project.read('.ralph/runs/demo/state.json')).stories[id].costUsd;

const PARKED_FOR_BUDGET =
  /its attempts cost \$[\d.]+, reaching the per-story budget of \$[\d.]+ \(--max-cost-per-story\)/;

/**
 * One attempt at US-001 on its own (parked by `--max-retries 1`) tells what
 * an attempt costs; the budget is then one and a half attempts.
 */
async function costOfOneAttempt(project: LoopProject, args: string[]): Promise<number> {
  const first = await project.run(['demo', ...args, '--story', 'US-001', '--max-retries', '1']);
  expect(first.exitCode).toBe(1);
  const cost = await storyCost(project, 'US-001');
  expect(cost).toBeGreaterThan(0);
  return cost;
}

describe('--max-cost-per-story', () => {
  it('parks a story once its attempts reach the budget, in the sequential runner and from the config', async () => {
    const project = await createLoopProject({ '.ralph/prds/demo/prd.json': prdJson(STORIES) }, PLAN);
    terminals.defer(project.cleanup);
    const attempt = await costOfOneAttempt(project, ['--no-worktree']);
    const budget = (attempt * 1.5).toFixed(6);

    // A new run: retries start afresh (3), but the second attempt in all reaches the budget.
    const second = await project.run(['demo', '--no-worktree', '--max-cost-per-story', budget]);
    expect(second.exitCode).toBe(1);
    expect(second.stdout).toMatch(
      /✗ US-001 attempt 1\/3 failed \(fail-signal\): The agent reported FAIL: not yet\n/,
    );
    expect(second.stdout).toMatch(
      new RegExp(`✗ US-001 parked after 1 attempts?: ${PARKED_FOR_BUDGET.source}`),
    );
    expect(second.stdout).toContain('✓ US-002 passed on attempt 1');
    expect(project.stories.prompts('US-001')).toHaveLength(2);
    expect(await storyCost(project, 'US-001')).toBeCloseTo(attempt * 2, 6);
    const state = JSON.parse(await project.read('.ralph/runs/demo/state.json'));
    expect(state.stories['US-001'].parked).toBe(true);

    // Set in the config, the budget parks the story before any attempt: it was spent already.
    await project.repo.write('.ralph/config.yaml', `limits:\n  maxCostPerStory: ${budget}\n`);
    await project.repo.git('add', '-A');
    await project.repo.git('commit', '-q', '-m', 'budget');
    const third = await project.run(['demo', '--no-worktree']);
    expect(third.exitCode).toBe(1);
    expect(third.stdout).toMatch(
      new RegExp(`✗ US-001 parked before an attempt: ${PARKED_FOR_BUDGET.source}`),
    );
    expect(project.stories.prompts('US-001')).toHaveLength(2);
  });

  it('parks a story once its attempts reach the budget, in the parallel runner', async () => {
    const project = await parallelProject(prdJson(STORIES), PLAN);
    terminals.defer(project.cleanup);
    const attempt = await costOfOneAttempt(project, []);
    const budget = (attempt * 1.5).toFixed(6);

    const second = await project.run(['demo', '--parallel', '2', '--max-cost-per-story', budget]);
    expect(second.exitCode).toBe(1);
    expect(second.stdout).toMatch(
      new RegExp(`\\[w\\d US-001\\] ✗ US-001 parked after 1 attempts?: ${PARKED_FOR_BUDGET.source}`),
    );
    expect(second.stdout).toContain('✓ US-002 passed on attempt 1');
    expect(project.stories.prompts('US-001')).toHaveLength(2);

    const third = await project.run(['demo', '--parallel', '2', '--max-cost-per-story', budget]);
    expect(third.exitCode).toBe(1);
    expect(third.stdout).toMatch(
      new RegExp(`✗ US-001 parked before an attempt: ${PARKED_FOR_BUDGET.source}`),
    );
    expect(project.stories.prompts('US-001')).toHaveLength(2);
  });

  it('counts a race’s resolution in the parallel runner: a requeued story that spent the budget is parked, not redone', async () => {
    const stories = [
      { id: 'S-1', title: 'First' },
      { id: 'S-2', title: 'Second' },
    ];
    // The resolution is refused (it drops the landed story's line) after spending on a large prompt.
    const costlyDropping = (kind: OverlapKind, s: { id: string; title: string }): Turn[] =>
      droppingResolution(kind, s).map((t) => ('tool' in t ? t : { ...t, usage: { inputTokens: 400_000 } }));
    const project = await parallelProject(prdJson(stories), promptsOnly(stories), {
      files: OVERLAP_FILES.overwrite,
      wrap: overlapAgent('overwrite', stories, { resolve: costlyDropping }),
    });
    terminals.defer(project.cleanup);
    const budget = 0.5;
    const run = await project.run([
      'demo',
      '--headless',
      '--parallel',
      '2',
      '--max-cost-per-story',
      String(budget),
    ]);
    expect(run.exitCode).toBe(1);

    const events = await readEvents(project);
    const passed = events.filter((e) => e.type === 'story-passed').map((e) => e.storyId);
    expect(passed).toHaveLength(1);
    const [first] = passed;
    const second = first === 'S-1' ? 'S-2' : 'S-1';
    expect(events.filter((e) => e.type === 'story-requeued')).toEqual([
      expect.objectContaining({ storyId: second, requeues: 1 }),
    ]);
    expect(events.filter((e) => e.type === 'story-parked')).toEqual([
      expect.objectContaining({ storyId: second, reason: expect.stringMatching(PARKED_FOR_BUDGET) }),
    ]);
    // Its attempt and its resolution, and no redo.
    expect(project.stories.prompts(second)).toHaveLength(2);
    expect(await storyCost(project, first ?? '')).toBeLessThan(budget);
    expect(await storyCost(project, second)).toBeGreaterThanOrEqual(budget);
    expect(run.stdout).toMatch(
      new RegExp(`✗ ${second} parked before an attempt: ${PARKED_FOR_BUDGET.source}`),
    );
  });

  it('is a usage error when not a positive amount, and nothing is written', async () => {
    const project = await createLoopProject({ '.ralph/prds/demo/prd.json': prdJson(STORIES) }, PLAN);
    terminals.defer(project.cleanup);
    const refused = await project.run(['demo', '--no-worktree', '--max-cost-per-story', '0']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("option '--max-cost-per-story <usd>' argument '0' is invalid");
    expect(refused.stderr).toContain('expected a positive number');
    expect(project.server.modelCalls()).toHaveLength(0);
    await expect(project.read('.ralph/runs/demo/state.json')).rejects.toThrow();
  });
});
