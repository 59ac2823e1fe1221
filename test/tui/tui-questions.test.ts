/**
 * Questions in the TUI, in a real 80x24 terminal with the real Claude Code
 * against the scripted model: a story whose agent asks is marked ?, its
 * question is shown, `a` opens a text field whose answer (typed fast, Enter
 * arriving with the text) the waiting run (--wait) picks up and goes on with.
 * The run has NO_COLOR set: the question and the field draw no colour.
 */
import { describe, expect, it, vi } from 'vitest';
import { createLoopProject, prdJson } from '../support/loop-project.js';
import { implement } from '../support/story-script.js';
import { KEYS, terminalEnv, terminalTests } from './terminal.js';

vi.setConfig({ testTimeout: 240_000 });

const terminals = terminalTests();

describe('a waiting story in the TUI', () => {
  it('shows ? and the question; a, the answer and Enter resume the waiting run, which lands the story', async () => {
    const question = 'Greet in English or in French?';
    const project = await createLoopProject(
      {
        '.ralph/prds/demo/prd.json': prdJson([
          { id: 'US-001', title: 'Add greeting' },
          { id: 'US-002', title: 'Add farewell' },
        ]),
      },
      {
        'US-001': [
          [{ text: `Only you can say.\n<ralph>ASK US-001: ${question}</ralph>` }],
          implement('US-001', 'Add greeting', 'greet.txt', 'bonjour\n'),
        ],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
      },
    );
    terminals.defer(project.cleanup);
    const t = terminals.start(['run', 'demo', '--no-worktree', '--wait'], {
      cwd: project.repo.dir,
      env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath, NO_COLOR: '1' }),
      columns: 80,
      rows: 24,
    });
    await t.see('press s to start');
    t.type('s');
    // US-002 lands; US-001 waits, and the run with it.
    let screen = await t.see(/✓ US-002/, 90_000);
    screen = await t.see(/\? US-001 Add greeting/, 60_000);
    t.type(KEYS.up);
    t.type(KEYS.up);
    screen = await t.see(question);
    expect(screen.text).toContain('a answers it');
    expect(screen.wrapped).toEqual([]);

    t.type('a');
    screen = await t.see('US-001 asks');
    expect(screen.text).toContain(question);
    t.type('French');
    screen = await t.see('Answer: French');
    expect(screen.colored).toBe('');
    // The answer and Enter in one write, as a fast typist or a paste sends them.
    t.type(', please\r');
    screen = await t.see(/✓ US-001/, 90_000);
    expect(screen.wrapped).toEqual([]);
    await t.see('demo complete — every story passed', 60_000);

    const prompts = project.stories.prompts('US-001');
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain(`You asked: ${question}\nThe answer is: French, please`);
    t.type('q');
    expect(await t.exited).toBe(0);
  });
});
