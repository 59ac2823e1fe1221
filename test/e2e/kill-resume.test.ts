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
async function _everCommitted(p: LoopProject): Promise<string[]> {
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
    expect((await repo.subjects()).filter((s) => s.startsWith('feat:'))).toEqual(['feat: greet']);
  });
});
