/**
 * The built `ralph` in a real 80×24 terminal with the real Claude Code
 * against a scripted server that first refuses the key: the TUI shows the
 * one sentence, does not offer `s` (pressed anyway, it starts nothing), and
 * once the key works `r` checks the agent again and `s` is back.
 */
import { describe, expect, it, vi } from 'vitest';
import { createLoopProject, prdJson } from '../support/loop-project.js';
import { implement } from '../support/story-script.js';
import { expectCleanScreen, footerOf } from './screen-checks.js';
import { terminalEnv, terminalTests } from './terminal.js';

vi.setConfig({ testTimeout: 240_000 });

const terminals = terminalTests();

describe('an agent that cannot be used', () => {
  it('shows the sentence, offers no s until r finds it fixed, then runs', async () => {
    let refuse = true;
    const project = await createLoopProject(
      { '.ralph/prds/demo/prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
      { 'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')] },
      {
        wrap: (script) => (req) =>
          refuse
            ? { error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } }
            : script(req),
      },
    );
    terminals.defer(project.cleanup);
    const t = terminals.start(['run', 'demo', '--no-worktree'], {
      cwd: project.repo.dir,
      env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath }),
      columns: 80,
      rows: 24,
    });
    await t.see('Stories 0/1 done');
    t.type('s');
    // The whole sentence, wrapped to the terminal: which agent, what failed, how to fix it.
    let screen = await t.see('claude cannot be used', 90_000);
    expectCleanScreen(screen, 'unusable notice 80×24');
    expect(screen.text.replace(/\s+/g, ' ')).toMatch(
      /claude cannot authenticate: Invalid API key .* To fix it: run `claude` and log in with \/login, or set ANTHROPIC_API_KEY, then run ralph again/,
    );
    t.type(' ');
    screen = await t.see('Stories 0/1 done');
    expectCleanScreen(screen, 'unusable 80×24');
    expect(screen.text).toContain('✗ claude cannot authenticate');
    // The attempt was given back: the story shows none.
    expect(screen.text).toMatch(/│ ○ todo +│/);
    expect(footerOf(screen)).toContain('r check agent');
    expect(footerOf(screen)).not.toContain('s start');
    const calls = project.server.modelCalls().length;

    // s does not start a run that could only fail the same way.
    t.type('s');
    screen = await t.see('not started: r checks claude again once fixed');
    expect(project.server.modelCalls()).toHaveLength(calls);

    // Fixed: r makes one tiny request, and s is offered again.
    refuse = false;
    t.type('r');
    screen = await t.see('claude answered: s starts demo', 90_000);
    expect(footerOf(screen)).toContain('s start');
    expect(screen.text).not.toContain('✗ claude cannot authenticate');
    t.type('s');
    screen = await t.see('demo complete — every story passed', 90_000);
    t.type('q');
    expect(await t.exited).toBe(0);
  });
});
