/**
 * ralph killed with SIGKILL at the moments no outside timing can hit
 * (`RALPH_FAULT_AT`, see src/state/fault-point.ts), then run again with the
 * real Claude Code: nothing it started survives, nothing it was writing is
 * committed.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../support/anthropic-server.js';
import { createClaudeEnv } from '../support/claude-env.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { createLoopProject, featSubjects, type LoopProject, prdJson } from '../support/loop-project.js';
import { scriptedTurns, sessionQueue, type Turn } from '../support/model-script.js';
import { processesIn } from '../support/processes.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';

let project: LoopProject | undefined;
let goal: { repo: GitFixture; cleanup: () => Promise<void> } | undefined;
afterEach(async () => {
  for (const left of [project, goal]) {
    if (left === undefined) continue;
    // What a failing test left running must not outlive it.
    for (const p of processesIn(left.repo.dir)) process.kill(p.pid, 'SIGKILL');
    await left.cleanup();
  }
  project = undefined;
  goal = undefined;
});

/** Every path any commit of the repository ever touched. */
async function everCommitted(p: LoopProject): Promise<string[]> {
  const out = await p.repo.git('log', '--all', '--name-only', '--format=');
  return [...new Set(out.split('\n').filter((l) => l !== ''))].sort();
}

describe('killed with SIGKILL, run again', () => {
  it('stops an agent killed ralph had just spawned, before its pid was recorded', async () => {
    // The first attempt's agent waits on a slow model, so it outlives the ralph that started it.
    const slow = implement('US-001', 'Add greeting', 'greet.txt', 'hello\n').map((t, i) =>
      i === 0 ? { ...t, delayMs: 15_000 } : t,
    );
    project = await createLoopProject(
      { 'prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
      { 'US-001': [slow, implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')] },
    );
    const args = ['prd.json', '--headless', '--no-worktree'];
    const killed = await project.run(args, { env: { RALPH_FAULT_AT: 'agent-spawned' } });
    expect(killed.signal).toBe('SIGKILL');
    const orphans = processesIn(project.repo.dir);
    expect(orphans.length).toBeGreaterThan(0);

    const again = await project.run(args);
    expect(again.stderr).toBe('');
    expect(again.exitCode).toBe(0);
    // The orphan was found and stopped on resume, not left to commit after the rollback.
    expect(processesIn(project.repo.dir)).toEqual([]);
    expect(await featSubjects(project.repo)).toEqual(['feat: US-001 - Add greeting']);
  });

  it.each([
    ['a task file in .ralph/prds', '.ralph/prds/demo/prd.json', 'demo'],
    ['a task file at the project root', 'prd.json', 'prd.json'],
  ])('commits no temporary file of an atomic write it was killed in (%s)', async (_, file, target) => {
    project = await createLoopProject(
      { [file]: prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
      { 'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')] },
    );
    const args = [target, '--headless', '--no-worktree'];
    // The first write of the task file is the pass being recorded.
    const killed = await project.run(args, { env: { RALPH_FAULT_AT: 'atomic-write:prd.json' } });
    expect(killed.signal).toBe('SIGKILL');
    const temporaries = async (p: LoopProject) =>
      (await readdir(join(p.repo.dir, file, '..'))).filter((n) => n !== 'prd.json' && n.includes('prd.json'));
    expect(await temporaries(project)).toHaveLength(1);

    const again = await project.run(args);
    expect(again.stderr).toBe('');
    expect(again.exitCode).toBe(0);
    const stray = (await everCommitted(project)).filter((p) => /prd\.json./.test(p));
    expect(stray).toEqual([]);
    expect(await project.repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(await temporaries(project)).toEqual([]);
    expect(await featSubjects(project.repo)).toEqual(['feat: US-001 - Add greeting']);
  });
});

describe('goal mode killed with SIGKILL, run again', () => {
  it('stops an agent killed ralph had just spawned, before its pid was recorded', async () => {
    const done: Turn[] = [
      {
        tool: 'Bash',
        input: {
          command: "printf 'hello\\n' > greet.txt && git add greet.txt && git commit -q -m 'feat: greet'",
          description: 'write and commit',
        },
      },
      {
        text: `Done.\n\n\`\`\`json\n${JSON.stringify({ status: 'goal-complete', summary: 'Wrote greet.txt', goalCompleteSummary: 'greet.txt exists.' })}\n\`\`\``,
      },
    ];
    const slow = done.map((t, i) => (i === 0 ? { ...t, delayMs: 15_000 } : t));
    const server = await startAnthropicServer(sessionQueue([scriptedTurns(slow), scriptedTurns(done)]));
    const claude = await createClaudeEnv(server.url, { maxRetries: 0 });
    const repo = await createGitFixture({ files: { 'README.md': '# demo\n' } });
    goal = {
      repo,
      cleanup: async () => {
        await server.close();
        await claude.cleanup();
        await repo.cleanup();
      },
    };
    const run = (env: NodeJS.ProcessEnv = {}) =>
      runRalph(['goal', 'Create greet.txt.', '--name', 'spawn', '--headless'], {
        cwd: repo.dir,
        env: { ...claude.env, ...env, RALPH_AGENT_PATH: claude.binaryPath },
      });
    expect((await run({ RALPH_FAULT_AT: 'agent-spawned' })).signal).toBe('SIGKILL');
    expect(processesIn(repo.dir).length).toBeGreaterThan(0);

    const again = await run();
    expect(again.stderr).toBe('');
    expect(again.exitCode).toBe(0);
    expect(processesIn(repo.dir)).toEqual([]);
    // A goal run works in its worktree on ralph/<name> by default: the step landed there, once.
    const onBranch = (await repo.git('log', '--format=%s', 'ralph/spawn')).split('\n');
    expect(onBranch.filter((s) => s.startsWith('feat:'))).toEqual(['feat: greet']);
  });
});
