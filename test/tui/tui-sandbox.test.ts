/**
 * `ralph run --sandbox` in a real 80×24 terminal with the real Claude Code
 * under the real bubblewrap: the header says 🔒 before the run and while it
 * works, and the run completes inside the sandbox.
 */
import { describe, expect, it, vi } from 'vitest';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import { implement } from '../support/story-script.js';
import { expectCleanScreen } from './screen-checks.js';
import { terminalEnv, terminalTests } from './terminal.js';

vi.setConfig({ testTimeout: 240_000 });

const terminals = terminalTests();

function ralph(project: LoopProject, args: string[]) {
  return terminals.start(args, {
    cwd: project.repo.dir,
    env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath }),
    columns: 80,
    rows: 24,
  });
}

describe('the TUI of a sandboxed run', () => {
  it('shows 🔒 bwrap in the header at 80×24, before and during the run, which completes', async () => {
    const project = await createLoopProject(
      { '.ralph/prds/demo/prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
      // Slow enough to see the header while the agent works.
      {
        'US-001': [
          [
            { tool: 'Bash', input: { command: 'sleep 2', description: 'think' } },
            ...implement('US-001', 'Add greeting', 'greet.txt', 'hello\n'),
          ],
        ],
      },
    );
    terminals.defer(project.cleanup);
    const t = ralph(project, ['run', 'demo', '--no-worktree', '--sandbox']);
    const ready = await t.see('Stories 0/1 done');
    expect(ready.rows[1]).toMatch(/Iteration 0\/6 {2}· {2}\$0\.00 {2}· {2}claude {2}· {2}🔒 bwrap/);
    expectCleanScreen(ready, 'dashboard 80×24');
    t.type('s');
    const working = await t.see('● US-001', 60_000);
    expect(working.rows[1]).toContain('🔒 bwrap');
    const done = await t.see('demo complete — every story passed', 90_000);
    expect(done.text).toContain('Total: 1/1 passed');
    t.type('q');
    expect(await t.exited).toBe(0);
    expect(await project.read('greet.txt')).toBe('hello\n');
  });
});
