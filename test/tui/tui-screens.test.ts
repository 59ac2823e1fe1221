/**
 * The built `ralph` in a real terminal, read through a terminal emulator:
 * what the screens say and how they fit, before any agent runs (a PRD whose
 * stories all passed runs to its completion screen without one).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HELP_KEYS } from '../../src/ui/tui/model/help-lines.js';
import { CLAUDE_BINARY } from '../support/claude-env.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { prdJson } from '../support/loop-project.js';
import { expectCleanScreen, footerOf } from './screen-checks.js';
import { KEYS, terminalEnv, terminalTests } from './terminal.js';

// Each test runs ralph (and agents) in a terminal: minutes on a loaded two-core machine, not seconds.
vi.setConfig({ testTimeout: 120_000 });

const SEVEN = Array.from({ length: 7 }, (_, i) => ({
  id: `US-00${i + 1}`,
  title: `Story number ${i + 1}`,
}));

/** A prd.json whose stories have all passed. */
const finished = (stories: { id: string; title: string }[]) => {
  const prd = JSON.parse(prdJson(stories)) as { userStories: { passes: boolean }[] };
  for (const s of prd.userStories) s.passes = true;
  return `${JSON.stringify(prd, null, 2)}\n`;
};

let repo: GitFixture;
const terminals = terminalTests();
beforeAll(async () => {
  repo = await createGitFixture({
    files: {
      'README.md': '# demo\n',
      '.ralph/prds/done/prd.json': finished(SEVEN.slice(0, 2)),
      '.ralph/prds/todo/prd.json': prdJson(SEVEN, { branchName: 'ralph/todo' }),
    },
  });
});
afterAll(async () => {
  await repo.cleanup();
});

function ralph(args: string[], size = { columns: 100, rows: 30 }, env: NodeJS.ProcessEnv = {}) {
  return terminals.start(args, {
    cwd: repo.dir,
    env: terminalEnv({ RALPH_AGENT_PATH: CLAUDE_BINARY, IS_SANDBOX: '1', ...env }),
    ...size,
  });
}

describe('what the TUI says', () => {
  it('a PRD finished in an earlier run opens as complete: header, tab and picker', async () => {
    const t = ralph(['run', 'done']);
    const screen = await t.see('Stories 2/2 done');
    expect(screen.rows[0]).toContain('(done) Complete');
    expect(screen.text).not.toContain('press s to start');
    expect(screen.rows[2]).toContain('1 done 2/2 ✓');
    t.type('l');
    const picker = await t.see(/› 1 done/);
    expect(picker.rows.find((r) => r.includes('› 1 done'))).toMatch(/2\/2\s+Complete/);
    t.type('q');
    expect(await t.exited).toBe(0);
  });

  it('keeps the tabs in name order whatever the target', async () => {
    const t = ralph(['run', 'todo']);
    const screen = await t.see('Stories 0/7 done');
    expect(screen.rows[0]).toContain('(todo)');
    expect(screen.rows[2]).toMatch(/^ 1 done 2\/2 ✓ {2}2 todo 0\/7 ○/);
    t.type('q');
    expect(await t.exited).toBe(0);
  });

  it('counts every key of a burst: jjjjj moves five stories, ++ adds ten iterations; q leaves a summary', async () => {
    const t = ralph(['run', 'todo']);
    await t.see('Iteration 0/12');
    t.type('jjjjj');
    await t.see('US-006: Story number 6');
    t.type('++');
    await t.see('Iteration 0/22');
    t.type('k'.repeat(3));
    await t.see('US-003: Story number 3');
    t.type('q');
    expect(await t.exited).toBe(0);
    const shell = t.shell();
    expect(shell).toContain('todo: 0/7 stories passed; left: US-001, US-002');
    expect(shell).toContain('resume with: ralph run todo');
  });

  it('with CI set on a terminal, prints the plain lines instead of a blank screen', async () => {
    const t = ralph(['run', 'done'], undefined, { CI: 'true' });
    const screen = await t.see('all stories passed', 20_000);
    expect(screen.text).toMatch(/starting done \(Demo\): 0 stories left/);
    expect(await t.exited).toBe(0);
    // Bare `ralph` would open the TUI: there, it explains itself rather than start a loop unasked.
    const bare = ralph([], undefined, { CI: 'true' });
    expect(await bare.exited).toBe(0);
    expect(bare.shell()).toContain('Usage: ralph');
  });
});

describe('every screen fits the terminal', () => {
  for (const [columns, rows] of [
    [120, 40],
    [80, 24],
    [60, 20],
  ] as const) {
    it(`at ${columns}×${rows}: dashboard, log, every help page and the completion screen`, async () => {
      const t = ralph(['run', 'todo'], { columns, rows });
      const size = `${columns}×${rows}`;
      expectCleanScreen(await t.see('Stories 0/7 done'), `dashboard ${size}`);

      t.type('t');
      expectCleanScreen(await t.see('Log — todo'), `log ${size}`);

      t.type('?');
      let help = await t.see('Keys');
      const seen: string[] = [];
      for (let page = 1; ; page++) {
        expectCleanScreen(help, `help page ${page} ${size}`);
        seen.push(...help.rows);
        const more = /page (\d+) of (\d+)/.exec(help.text);
        if (more === null || more[1] === more[2]) break;
        t.type(' ');
        help = await t.see(`page ${page + 1} of`);
      }
      // Every key is listed, none lost to the size.
      for (const [key] of HELP_KEYS) expect(seen.some((r) => r.startsWith(key))).toBe(true);
      expect(seen.join('\n')).toContain('twice: stop');
      t.type(KEYS.escape);
      await t.see('Log — todo');

      t.type('1');
      await t.see('(done) Complete');
      t.type('s');
      const done = await t.see('done complete — every story passed');
      expectCleanScreen(done, `completion ${size}`);
      expect(footerOf(done)).toContain('m merge');
      t.type('q');
      expect(await t.exited).toBe(0);
    });
  }
});
