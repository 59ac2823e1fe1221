/**
 * The built `ralph` in a real terminal running the real Claude Code against
 * the scripted model: the screen follows what the loop does — limits,
 * pauses, totals over several sessions, an agent stuck on its API.
 */
import { describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../support/anthropic-server.js';
import { createClaudeEnv } from '../support/claude-env.js';
import { createGitFixture } from '../support/git-fixture.js';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import type { Script } from '../support/model-script.js';
import { implement } from '../support/story-script.js';
import { KEYS, type RalphTerminal, terminalEnv, terminalTests } from './terminal.js';

const THREE = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
  { id: 'US-003', title: 'Add shout' },
];

const terminals = terminalTests();

function ralph(project: Pick<LoopProject, 'repo' | 'claude'>, args: string[], columns = 110, rows = 32) {
  return terminals.start(args, {
    cwd: project.repo.dir,
    env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath }),
    columns,
    rows,
  });
}

const headerOf = (t: RalphTerminal) => t.screen().rows[1] ?? '';

describe('limits, pauses and totals', () => {
  it('+/- before s steer the run the engine makes; p pauses; the count and totals span sessions', async () => {
    const project = await createLoopProject(
      { '.ralph/prds/demo/prd.json': prdJson(THREE) },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        // Slow enough to press p while it works.
        'US-002': [
          [
            { tool: 'Write', input: { file_path: 'bye.txt', content: 'bye\n' }, delayMs: 2500 },
            ...implement('US-002', 'Add farewell', 'bye.txt', 'bye\n').slice(1),
          ],
        ],
        'US-003': [implement('US-003', 'Add shout', 'shout.txt', 'HEY\n')],
      },
    );
    terminals.defer(project.cleanup);
    const t = ralph(project, ['run', 'demo', '--no-worktree']);
    await t.see('Iteration 0/8');

    // Four steps down from 13 would be -2: the limit stops at one iteration, and the engine keeps to it.
    t.type('+');
    await t.see('Iteration 0/13');
    t.type('---');
    await t.see('Iteration 0/1');
    t.type('s');
    let screen = await t.see('demo: reached the limit of 1 iteration', 90_000);
    expect(screen.text).toMatch(/✓ US-001\s+Add greeting/);
    expect(screen.text).toContain('Total: 1/3 passed · 1 iteration ·');
    t.type('t');
    screen = await t.see('Log — demo');
    expect(screen.text).toContain('up to 1 iteration');
    expect(screen.text).not.toContain('limit of 0');

    // The next run starts with the default limit (2 left + 5), counting on from iteration 1.
    t.type(KEYS.escape);
    await t.see('Stories 1/3 done');
    expect(headerOf(t)).toContain('Iteration 1/8');
    t.type('s');
    await t.see('working on US-002', 60_000);
    expect(headerOf(t)).toContain('Iteration 2/8');
    t.type('p');
    await t.see('Pausing after this iteration');
    screen = await t.see('Paused — press s to resume', 60_000);
    await t.gone(/pausing/i);
    expect(screen.text).toContain('Stories 2/3 done');
    expect(screen.text).not.toMatch(/stopped/i);
    // Paused with one story left: the next run may use 1 + 5 iterations after iteration 2.
    await t.see('Iteration 2/8');

    t.type('s');
    screen = await t.see('demo complete — every story passed', 90_000);
    expect(screen.text).toContain('Total: 3/3 passed · 3 iterations ·');
    t.type('q');
    expect(await t.exited).toBe(0);
    expect(t.shell()).toContain('demo: 3/3 stories passed, complete');
  });
});

describe('a stuck agent', () => {
  it("shows the agent's own API retries, the attempt's clock and its silence; Ctrl-C twice quits with a summary", async () => {
    // Claude Code retries an overloaded API by itself: three 529s, then a request that never returns.
    let agentCalls = 0;
    const script: Script = () => {
      agentCalls++;
      return agentCalls <= 3 ? { error: { status: 529, type: 'overloaded_error' } } : { hang: true };
    };
    const server = await startAnthropicServer(script);
    const claude = await createClaudeEnv(server.url, { maxRetries: 3 });
    const repo = await createGitFixture({
      files: { 'README.md': '# demo\n', '.ralph/prds/demo/prd.json': prdJson(THREE.slice(0, 1)) },
    });
    terminals.defer(server.close);
    terminals.defer(claude.cleanup);
    terminals.defer(repo.cleanup);
    const t = ralph({ repo, claude }, ['run', 'demo', '--no-worktree', '--idle-timeout', '8']);
    await t.see('press s to start');
    t.type('s');
    await t.see(/retry 1\/3/, 60_000);
    await t.see(/API request failed \(529 overloaded\); retry 3\/3/, 60_000);
    // A quarter of the idle timeout without a word: said so, with the attempt's clock running.
    const screen = await t.see(/▸ \d+s · silent for \d+s/, 30_000);
    expect(screen.rows[0]).toContain('Running');
    t.type('t');
    await t.see(/retry 2\/3 in [\d.]+s/);

    t.type(KEYS.ctrlC);
    await t.see('quitting after this iteration (Ctrl-C again to stop now)');
    t.type(KEYS.ctrlC);
    expect(await t.exited).toBe(130);
    const shell = t.shell();
    expect(shell).toContain('demo: 0/1 stories passed; left: US-001');
    expect(shell).toContain('resume with: ralph run demo');
  });
});
