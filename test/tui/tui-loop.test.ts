/**
 * The built `ralph` in a real terminal running the real Claude Code against
 * the scripted model: the screen follows what the loop does — limits,
 * pauses, iteration numbers and totals over several sessions.
 */
import { describe, expect, it, vi } from 'vitest';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import { implement } from '../support/story-script.js';
import { KEYS, type RalphTerminal, terminalEnv, terminalTests } from './terminal.js';

// Each test runs ralph (and agents) in a terminal: minutes on a loaded two-core machine, not seconds.
vi.setConfig({ testTimeout: 240_000 });

const TWO = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
];

const terminals = terminalTests();

function ralph(project: LoopProject, args: string[], columns = 110, rows = 32) {
  return terminals.start(args, {
    cwd: project.repo.dir,
    env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath }),
    columns,
    rows,
  });
}

const headerOf = (t: RalphTerminal) => t.screen().rows[1] ?? '';

describe('limits, pauses and totals', () => {
  it('+/- before s steer the run the engine makes, and do not come back on the next run', async () => {
    const project = await createLoopProject(
      { '.ralph/prds/demo/prd.json': prdJson(TWO) },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
      },
    );
    terminals.defer(project.cleanup);
    const t = ralph(project, ['run', 'demo', '--no-worktree']);
    await t.see('Iteration 0/7');
    // Down from 12 by fifteen: the limit stops at one iteration, and the engine keeps to it.
    for (const [key, shown] of [
      ['+', 'Iteration 0/12'],
      ['-', 'Iteration 0/7'],
      ['-', 'Iteration 0/2'],
      ['-', 'Iteration 0/1'],
    ] as const) {
      t.type(key);
      await t.see(shown);
    }
    t.type('s');
    let screen = await t.see('demo: reached the limit of 1 iteration', 90_000);
    expect(screen.text).toMatch(/✓ US-001\s+Add greeting/);
    expect(screen.text).toContain('Total: 1/2 passed · 1 iteration ·');
    t.type('t');
    screen = await t.see('Log — demo');
    expect(screen.text).toContain('up to 1 iteration');
    expect(screen.text).not.toContain('limit of 0');

    // The next run starts with the default limit (1 left + 5), counting on from iteration 1.
    t.type(KEYS.escape);
    await t.see('Stories 1/2 done');
    expect(headerOf(t)).toContain('Iteration 1/7');
    t.type('s');
    screen = await t.see('demo complete — every story passed', 90_000);
    expect(screen.text).toContain('Total: 2/2 passed · 2 iterations ·');
    t.type('q');
    expect(await t.exited).toBe(0);
    expect(t.shell()).toContain('demo: 2/2 stories passed, complete');
  });

  it('p pauses: shown as paused, s resumes, the iteration count and the totals go on', async () => {
    const project = await createLoopProject(
      { '.ralph/prds/demo/prd.json': prdJson(TWO) },
      {
        // Slow enough to press p while it works.
        'US-001': [
          [
            { tool: 'Write', input: { file_path: 'greet.txt', content: 'hello\n' }, delayMs: 2500 },
            ...implement('US-001', 'Add greeting', 'greet.txt', 'hello\n').slice(1),
          ],
        ],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
      },
    );
    terminals.defer(project.cleanup);
    const t = ralph(project, ['run', 'demo', '--no-worktree']);
    await t.see('press s to start');
    t.type('s');
    await t.see('working on US-001', 60_000);
    t.type('p');
    await t.see('Pausing after this iteration');
    let screen = await t.see('Paused — press s to resume', 60_000);
    await t.gone(/pausing/i);
    expect(screen.text).toContain('Stories 1/2 done');
    expect(screen.text).not.toMatch(/stopped/i);
    // One story left: the next run may use 1 + 5 iterations after iteration 1.
    await t.see('Iteration 1/7');

    t.type('s');
    await t.see('Iteration 2/7', 60_000);
    screen = await t.see('demo complete — every story passed', 90_000);
    expect(screen.text).toContain('Total: 2/2 passed · 2 iterations ·');
    t.type('q');
    expect(await t.exited).toBe(0);
  });
});
