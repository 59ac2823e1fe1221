/**
 * An agent stuck on its API, in a real terminal: the real Claude Code against
 * a scripted model that is overloaded, then silent. The screen shows the
 * agent's own retries as they come, the attempt's clock and its silence.
 */
import { expect, it, vi } from 'vitest';
import { startAnthropicServer } from '../support/anthropic-server.js';
import { createClaudeEnv } from '../support/claude-env.js';
import { createGitFixture } from '../support/git-fixture.js';
import { prdJson } from '../support/loop-project.js';
import type { Script } from '../support/model-script.js';
import { KEYS, terminalEnv, terminalTests } from './terminal.js';

// Each test runs ralph (and agents) in a terminal: minutes on a loaded two-core machine, not seconds.
vi.setConfig({ testTimeout: 240_000 });

const terminals = terminalTests();

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
    files: {
      'README.md': '# demo\n',
      '.ralph/prds/demo/prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]),
    },
  });
  terminals.defer(server.close);
  terminals.defer(claude.cleanup);
  terminals.defer(repo.cleanup);
  const t = terminals.start(['run', 'demo', '--no-worktree', '--idle-timeout', '8'], {
    cwd: repo.dir,
    env: terminalEnv({ ...claude.env, RALPH_AGENT_PATH: claude.binaryPath }),
    columns: 110,
    rows: 32,
  });
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
