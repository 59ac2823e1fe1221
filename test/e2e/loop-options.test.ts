/** `ralph run` options and stop rules, with the real Claude Code against the scripted model. */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopProject, featSubjects, type LoopProject, prdJson } from '../support/loop-project.js';
import { processesIn } from '../support/processes.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement, storyIdOf } from '../support/story-script.js';

const TWO = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
];
const plan = {
  'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
  'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
};

let project: LoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(50);
  }
}

describe('ralph run options', () => {
  it('--dry-run prints the next story prompt and changes nothing', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, plan);
    const before = await project.repo.head();
    const result = await project.run(['prd.json', '--dry-run']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('## Your story: US-001 - Add greeting');
    expect(result.stdout).not.toContain('US-002 - Add farewell');
    expect(project.server.modelCalls()).toHaveLength(0);
    expect(await project.repo.head()).toBe(before);
    expect(await project.repo.git('status', '--porcelain')).toBe('');
  });

  it('--json prints one JSON event per line, ending with run-finished', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, plan);
    const result = await project.run(['prd.json', '--json', '--no-worktree']);
    expect(result.exitCode).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; exitCode?: number });
    expect(events[0]?.type).toBe('run-started');
    expect(events.filter((e) => e.type === 'story-passed')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'run-finished', exitCode: 0 });
    expect(events.some((e) => e.type === 'agent-event')).toBe(true);
  });

  it('report, logs and status show what the run did: attempts, tokens, cost and the raw stream', async () => {
    project = await createLoopProject(
      { 'prd.json': prdJson(TWO) },
      { ...plan, 'US-001': [[{ text: '<ralph>FAIL US-001: not yet</ralph>' }], ...plan['US-001']] },
    );
    const run = await project.run(['prd.json', '--headless', '--no-worktree']);
    expect(run.exitCode).toBe(0);
    const cli = (args: string[]) => runRalph(args, { cwd: project?.repo.dir ?? '' });

    const report = await cli(['report', 'prd.json', '--json']);
    expect(report.exitCode).toBe(0);
    const receipt = JSON.parse(report.stdout) as {
      stories: { id: string; attempts: number; costUsd: number; inputTokens: number }[];
      totals: { iterations: number; costUsd: number };
    };
    expect(receipt.stories.map((s) => [s.id, s.attempts])).toEqual([
      ['US-001', 2],
      ['US-002', 1],
    ]);
    for (const s of receipt.stories) {
      expect(s.costUsd).toBeGreaterThan(0);
      expect(s.inputTokens).toBeGreaterThan(0);
    }
    expect(receipt.totals.iterations).toBe(3);
    expect(receipt.totals.costUsd).toBeCloseTo(
      receipt.stories.reduce((sum, s) => sum + s.costUsd, 0),
      6,
    );

    const raw = await cli(['logs', 'prd.json', '--iteration', '1', '--raw']);
    expect(raw.exitCode).toBe(0);
    const lines = raw.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines[0]?.type).toBe('system');
    expect(lines.at(-1)?.type).toBe('result');
    expect((await cli(['logs', 'prd.json', '--iteration', '9'])).exitCode).toBe(2);
    expect((await cli(['logs', 'prd.json'])).stdout).toMatch(
      /US-001 attempt 1\/3 failed \(fail-signal\): .*not yet/,
    );

    const status = JSON.parse((await cli(['status', 'prd.json', '--json'])).stdout) as {
      next: unknown;
      run: { totals: { iterations: number } };
    };
    expect(status.next).toBeNull();
    expect(status.run.totals.iterations).toBe(3);
  });

  it('--story runs only that story; the next run picks up the rest', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, plan);
    const only = await project.run(['prd.json', '--headless', '--no-worktree', '--story', 'US-002']);
    expect(only.exitCode).toBe(0);
    expect(await featSubjects(project.repo)).toEqual(['feat: US-002 - Add farewell']);
    // It says what happened to the story asked for, not that every story passed.
    expect(only.stdout).not.toContain('all stories passed');
    expect(only.stdout).toMatch(
      /US-002 passed; 1 other story is still to do \(left out by --story\) — 1\/2 passed/,
    );
    const limited = await project.run([
      'prd.json',
      '--headless',
      '--no-worktree',
      '-n',
      '1',
      '--max-retries',
      '1',
    ]);
    expect(limited.exitCode).toBe(0);
    expect(await featSubjects(project.repo)).toEqual([
      'feat: US-002 - Add farewell',
      'feat: US-001 - Add greeting',
    ]);
  });

  it('stops with exit 3 when the iteration limit is reached with work left', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, plan);
    const result = await project.run(['prd.json', '--headless', '--no-worktree', '-n', '1']);
    expect(result.exitCode).toBe(3);
    expect(await featSubjects(project.repo)).toEqual(['feat: US-001 - Add greeting']);
  });

  it('stops with exit 3 before exceeding --max-cost', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, plan);
    // One scripted iteration costs a few cents; a budget of one cent allows the first and no more.
    const result = await project.run(['prd.json', '--headless', '--no-worktree', '--max-cost', '0.01']);
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toMatch(/budget/);
    expect(await featSubjects(project.repo)).toEqual(['feat: US-001 - Add greeting']);
  });

  it('rejects an unknown --story id with exit 2 and runs nothing', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, plan);
    const result = await project.run(['prd.json', '--story', 'US-999']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/US-999/);
    expect(project.server.modelCalls()).toHaveLength(0);
  });

  it('refuses a missing agent binary, and root without IS_SANDBOX, before any iteration', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, plan);
    const missing = await project.run(['prd.json', '--agent-path', '/nonexistent/claude']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/not found/);
    if (process.getuid?.() === 0) {
      const root = await project.run(['prd.json', '--headless'], { env: { IS_SANDBOX: '' } });
      expect(root.exitCode).toBe(4);
      expect(root.stderr).toMatch(/IS_SANDBOX/);
    }
    expect(project.server.modelCalls()).toHaveLength(0);
  });

  it('refuses to start on a dirty tree, listing the files, and changes nothing', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, plan);
    await project.repo.write('notes.txt', 'my uncommitted work');
    const result = await project.run(['prd.json', '--headless', '--no-worktree']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/notes\.txt/);
    expect(await project.read('notes.txt')).toBe('my uncommitted work');
    expect(project.server.modelCalls()).toHaveLength(0);
  });

  it('first Ctrl-C finishes the iteration and stops with 130; the next run continues', async () => {
    const slow = implement('US-001', 'Add greeting', 'greet.txt', 'hello\n').map((t, i) =>
      i === 0 ? { ...t, delayMs: 2500 } : t,
    );
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, { ...plan, 'US-001': [slow] });
    const p = project;
    let pid = 0;
    const running = p.run(['prd.json', '--headless', '--no-worktree'], { onSpawn: (x) => (pid = x) });
    await waitFor(() => p.server.modelCalls().some((r) => storyIdOf(r) === 'US-001'));
    process.kill(pid, 'SIGINT');
    const result = await running;
    expect(result.exitCode).toBe(130);
    expect(result.stdout).toMatch(/stopping after this iteration/);
    expect(await featSubjects(p.repo)).toEqual(['feat: US-001 - Add greeting']);
    expect(p.stories.prompts('US-002')).toHaveLength(0);
    const again = await p.run(['prd.json', '--headless', '--no-worktree']);
    expect(again.exitCode).toBe(0);
    expect(await featSubjects(p.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
    ]);
  });

  it('second Ctrl-C kills the agent now, rolls back, exits 130 and leaves no processes', async () => {
    const slow = [
      { tool: 'Write', input: { file_path: 'partial.txt', content: 'x' } },
      { tool: 'Bash', input: { command: 'sleep 3456.5', description: 'think' } },
    ];
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, { ...plan, 'US-001': [slow] });
    const p = project;
    let pid = 0;
    const running = p.run(['prd.json', '--headless', '--no-worktree'], { onSpawn: (x) => (pid = x) });
    await waitFor(() => p.server.modelCalls().some((r) => storyIdOf(r) === 'US-001' && r.turn === 1));
    await sleep(300);
    process.kill(pid, 'SIGINT');
    await sleep(200);
    process.kill(pid, 'SIGINT');
    const result = await running;
    expect(result.exitCode).toBe(130);
    expect(await p.repo.git('status', '--porcelain')).toBe('');
    expect(await featSubjects(p.repo)).toEqual([]);
    expect(processesIn(p.repo.dir)).toEqual([]);
  });
});
