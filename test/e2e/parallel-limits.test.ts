/**
 * Limits and signals across the workers of `ralph run --parallel`, with the
 * real Claude Code: Ctrl-C once and twice, a rate limit hit by one worker,
 * the iteration limit counting attempts of every worker, and the budget
 * counting attempts still running.
 */
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_KEY_VAR, CODEX_TEST_MODEL, createCodexEnv } from '../support/codex-env.js';
import { type LoopProject, prdJson } from '../support/loop-project.js';
import type { Turn } from '../support/model-script.js';
import { withFailures } from '../support/model-script.js';
import { landedOrder, parallelProject, readEvents } from '../support/parallel-project.js';
import { processesIn } from '../support/processes.js';
import { startResponsesServer } from '../support/responses-server.js';
import { implement, storyIdOf, storyScript } from '../support/story-script.js';

let project: LoopProject | undefined;
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

const work = (id: string): Turn[] => implement(id, `Story ${id}`, `${id}.txt`, `${id}\n`);
const slow = (id: string, ms = 4000): Turn[] => work(id).map((t, i) => (i === 0 ? { ...t, delayMs: ms } : t));
const storyBranches = async (p: LoopProject) => p.repo.git('branch', '--list', 'ralph-stories/*');

async function untilAsked(p: LoopProject, ids: string[]): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!ids.every((id) => p.server.modelCalls().some((r) => storyIdOf(r) === id))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${ids.join(', ')}`);
    await sleep(50);
  }
}

describe('ralph run --parallel: signals and limits', () => {
  it('Ctrl-C once lets running stories finish and land; twice stops every agent and rolls back', async () => {
    project = await parallelProject(
      prdJson([
        { id: 'G-1', title: 'Story G-1' },
        { id: 'G-2', title: 'Story G-2' },
        { id: 'G-3', title: 'Story G-3', dependsOn: ['G-1'] },
      ]),
      // G-3's answer never comes in time: it is surely mid-attempt when stopped.
      { 'G-1': [slow('G-1')], 'G-2': [slow('G-2')], 'G-3': [slow('G-3', 60_000)] },
    );
    const p = project;
    const args = ['demo', '--headless', '--parallel', '2'];
    let pid = 0;
    const graceful = p.run(args, { onSpawn: (spawned) => (pid = spawned) });
    await untilAsked(p, ['G-1', 'G-2']);
    process.kill(pid, 'SIGINT');
    const first = await graceful;
    expect(first.exitCode).toBe(130);
    expect(first.stdout).toMatch(/stopping after this iteration/);
    // Both running stories finished and landed; nothing new started.
    expect((await landedOrder(p.repo, 'ralph/demo')).sort()).toEqual(['G-1', 'G-2']);
    expect(p.stories.prompts('G-3')).toEqual([]);
    expect(await storyBranches(p)).toBe('');

    const immediate = p.run(args, { onSpawn: (spawned) => (pid = spawned) });
    await untilAsked(p, ['G-3']);
    process.kill(pid, 'SIGINT');
    await sleep(200);
    process.kill(pid, 'SIGINT');
    const second = await immediate;
    expect(second.exitCode).toBe(130);
    expect(second.stdout).toMatch(/stopping now/);
    expect(second.stdout).toMatch(/\[w1 G-3\] +rolled back to/);
    expect(await landedOrder(p.repo, 'ralph/demo')).toHaveLength(2);
    expect(await storyBranches(p)).toBe('');
    expect(processesIn(p.repo.dir)).toEqual([]);
    // The interrupted attempt does not count against the story.
    const status = JSON.parse(await p.read('.ralph/runs/demo/state.json')) as {
      stories: Record<string, { attempts: number }>;
      running?: unknown[];
    };
    expect(status.stories['G-3']?.attempts).toBe(0);
    expect(status.running).toEqual([]);
  });

  it('a rate limit hit by one worker holds new starts instead of failing the attempt', async () => {
    project = await parallelProject(
      prdJson([
        { id: 'R-1', title: 'Story R-1' },
        { id: 'R-2', title: 'Story R-2' },
      ]),
      { 'R-1': [work('R-1')], 'R-2': [work('R-2')] },
      {
        wrap: (script) =>
          withFailures(
            [{ error: { status: 429, type: 'rate_limit_error', message: 'Rate limited' } }],
            script,
          ),
      },
    );
    const result = await project.run(['demo', '--headless', '--parallel', '2'], {
      env: { RALPH_RATE_LIMIT_BACKOFF_MS: '300' },
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const events = await readEvents(project);
    expect(events.filter((e) => e.type === 'rate-limited')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'attempt-failed')).toEqual([]);
    for (const id of ['R-1', 'R-2'])
      expect(events.find((e) => e.type === 'story-passed' && e.storyId === id)).toMatchObject({ attempt: 1 });
  });

  it('a rate limit hit by one worker moves new starts to the fallback agent; the other worker goes on', async () => {
    const ids = ['F-1', 'F-2', 'F-3'];
    const plan = Object.fromEntries(ids.map((id) => [id, [work(id)]]));
    // The fallback is the real Codex CLI against a scripted Responses server, found on the PATH.
    const codexServer = await startResponsesServer(storyScript(plan).script);
    const codex = await createCodexEnv(codexServer.url);
    cleanups.push(codex.cleanup, () => codexServer.close());
    const q = (text: string) => JSON.stringify(text);
    const codexEnv = {
      PATH: `${dirname(codex.binaryPath)}:${process.env.PATH ?? ''}`,
      CODEX_HOME: codex.env.CODEX_HOME ?? '',
      [CODEX_KEY_VAR]: 'test-key',
    };
    const config = [
      'agent:',
      '  fallback: [codex]',
      `  args:\n    codex: [${[...codex.args, '--model', CODEX_TEST_MODEL].map(q).join(', ')}]`,
      `  env:\n    codex:\n${Object.entries(codexEnv)
        .map(([name, value]) => `      ${name}: ${q(value)}`)
        .join('\n')}`,
    ].join('\n');
    project = await parallelProject(prdJson(ids.map((id) => ({ id, title: `Story ${id}` }))), plan, {
      files: { '.ralph/config.yaml': `${config}\n` },
      // Claude's first request is refused with a 429; every later one is answered.
      wrap: (script) =>
        withFailures([{ error: { status: 429, type: 'rate_limit_error', message: 'Rate limited' } }], script),
    });
    const result = await project.run(['demo', '--headless', '--parallel', '2']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const events = await readEvents(project);
    expect(events.filter((e) => e.type === 'agent-switched')).toEqual([
      expect.objectContaining({ from: 'claude', to: 'codex' }),
    ]);
    // Nobody waited and nothing failed: the limited attempt was given back and started again on Codex.
    expect(events.filter((e) => e.type === 'rate-limited')).toEqual([]);
    expect(events.filter((e) => e.type === 'attempt-failed')).toEqual([]);
    for (const id of ids)
      expect(events.find((e) => e.type === 'story-passed' && e.storyId === id)).toMatchObject({ attempt: 1 });
    expect((await landedOrder(project.repo, 'ralph/demo')).sort()).toEqual(ids);
    // Claude finished one story (the worker that was not limited); Codex did the other two.
    const byCodex = [...new Set(codexServer.modelCalls().flatMap((r) => storyIdOf(r) ?? []))].sort();
    expect(byCodex).toHaveLength(2);
    const byClaudeOnly = ids.filter((id) => !byCodex.includes(id));
    expect(byClaudeOnly).toHaveLength(1);
    const claudeDone = project.server.modelCalls().filter((r) => storyIdOf(r) === byClaudeOnly[0]);
    expect(claudeDone.length).toBeGreaterThanOrEqual(3);
  });

  it('--max-iterations counts the attempts of every worker', async () => {
    project = await parallelProject(
      prdJson([
        { id: 'M-1', title: 'Story M-1' },
        { id: 'M-2', title: 'Story M-2' },
        { id: 'M-3', title: 'Story M-3' },
      ]),
      { 'M-1': [work('M-1')], 'M-2': [work('M-2')], 'M-3': [work('M-3')] },
    );
    const result = await project.run(['demo', '--headless', '--parallel', '3', '-n', '2']);
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toMatch(/reached the limit of 2 iterations/);
    expect(await landedOrder(project.repo, 'ralph/demo')).toHaveLength(2);
    expect(project.server.modelCalls().filter((r) => r.turn === 0)).toHaveLength(2);
    expect(await storyBranches(project)).toBe('');
  });

  it('--max-cost counts the attempts still running before starting another', async () => {
    // Every attempt is the same three scripted answers, so each costs the same, c ($0.024 as
    // Claude Code prices the scripted usage). The budget lies between 2c and 3c.
    const budget = 0.06;
    project = await parallelProject(
      prdJson([
        { id: 'C-1', title: 'Story C-1' },
        { id: 'C-2', title: 'Story C-2' },
        { id: 'C-3', title: 'Story C-3', dependsOn: ['C-1'] },
      ]),
      // C-2 is still running when C-1 lands and C-3 becomes ready.
      { 'C-1': [work('C-1')], 'C-2': [slow('C-2', 15_000)], 'C-3': [work('C-3')] },
    );
    const result = await project.run(['demo', '--headless', '--parallel', '2', '--max-cost', String(budget)]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toMatch(/stopped before exceeding the \$0\.06 budget/);

    // The premises: equal costs c with 2c <= budget < 3c, and C-1 landed while C-2 still ran.
    const state = JSON.parse(await project.read('.ralph/runs/demo/state.json')) as {
      stories: Record<string, { costUsd: number }>;
    };
    const c = state.stories['C-1']?.costUsd ?? 0;
    expect(state.stories['C-2']?.costUsd).toBeCloseTo(c, 6);
    expect(2 * c).toBeLessThanOrEqual(budget);
    expect(3 * c).toBeGreaterThan(budget);
    const events = await readEvents(project);
    const at = (type: string, id: string) => events.findIndex((e) => e.type === type && e.storyId === id);
    expect(at('story-passed', 'C-1')).toBeGreaterThan(-1);
    expect(at('story-passed', 'C-1')).toBeLessThan(at('story-verified', 'C-2'));

    // Then spent c plus an average attempt for C-2 (running) and one for C-3 is 3c, over the
    // budget: C-3 never started, though spent plus one attempt (2c) was within it.
    expect(project.stories.prompts('C-3')).toEqual([]);
    expect((await landedOrder(project.repo, 'ralph/demo')).sort()).toEqual(['C-1', 'C-2']);
    expect(await storyBranches(project)).toBe('');
  });
});
