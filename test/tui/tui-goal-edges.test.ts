/**
 * `ralph goal` in a real terminal at 80×24, over the real Claude Code: a
 * long goal title leaves the state and the mode in the header, `d` shows
 * the iteration's work so far, the limit does not move at completion, and
 * `q` once the goal is reached does not ask to stop a loop that is only
 * finishing.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { createGoalProject, twoFilePlan } from '../support/goal-project.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { expectCleanScreen } from './screen-checks.js';
import { KEYS, type Screen, terminalEnv, terminalTests } from './terminal.js';

// Three agent iterations in a terminal: minutes on a loaded two-core machine, not seconds.
vi.setConfig({ testTimeout: 240_000 });

const terminals = terminalTests();
const GOAL = 'Write two step files so that every visitor is greeted and then said goodbye to politely';
const header = (s: Screen) => s.rows[0] ?? '';

describe('a goal run at 80×24', () => {
  it('keeps the state and the mode in the header, shows the work in progress, and ends without a question', async () => {
    const scratch = await makeTempDir('tui-goal-edges');
    terminals.defer(() => removeTempDir(scratch));
    const started = join(scratch, 'started');
    const release = join(scratch, 'release');
    // The hook after iteration 3, the last one.
    const hookRan = join(scratch, 'hook-3');
    const project = await createGoalProject(
      twoFilePlan([
        { tool: 'Write', input: { file_path: 'draft.txt', content: 'not yet\n' } },
        {
          tool: 'Bash',
          input: {
            command: `touch '${started}'; while [ ! -f '${release}' ]; do sleep 0.1; done; rm draft.txt`,
            description: 'wait for the test',
          },
        },
      ]),
      {
        '.ralph/.gitignore': 'runs/\nworktrees/\n',
        // After the last iteration the loop still runs this hook: the goal is reached, the run not over.
        '.ralph/config.yaml': `hooks:\n  - id: notes\n    run: sleep 3; echo "$ITERATION" >> NOTES.md; touch '${scratch}/hook-'"$ITERATION"\n`,
      },
    );
    terminals.defer(project.cleanup);
    const t = terminals.start(['goal', GOAL], {
      cwd: project.repo.dir,
      env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath }),
      columns: 80,
      rows: 24,
    });

    let screen = await t.see('Steps 0/0 done');
    expectCleanScreen(screen, 'goal dashboard 80×24');
    expect(header(screen)).toMatch(
      /^ralph Write two step files.*… goal · planning Ready — press s to start$/,
    );
    expect(screen.rows[1]).toContain('Iteration 0/50');
    t.type('s');

    // Iteration 3 waits with a file written and not committed: d shows it, since the iteration began.
    for (let i = 0; i < 1200 && !existsSync(started); i++) await sleep(100);
    expect(existsSync(started)).toBe(true);
    screen = await t.see((s) => header(s).includes('goal · executing Running'));
    expectCleanScreen(screen, 'goal running 80×24');
    t.type('d');
    screen = await t.see(
      (s) => s.text.includes('Diff — iteration 3, since it began') && !s.text.includes('loading…'),
    );
    expect(screen.text).not.toContain('No changes');
    expect(screen.text).toContain('Not tracked yet:');
    expect(screen.text).toMatch(/^draft\.txt$/m);
    t.type(KEYS.escape);
    screen = await t.see('Steps 1/2 done');
    expect(screen.rows[1]).toContain('Iteration 3/50');
    await writeFile(release, '');

    // The goal is reached; the hook after it still runs. q now waits for it, without a question.
    screen = await t.see('goal complete in iteration 3', 120_000);
    expect(existsSync(hookRan)).toBe(false);
    t.type('q');
    screen = await t.see('quitting once the run has finished');
    expect(screen.text).not.toContain('Stop it and quit?');
    expect(await t.exited).toBe(0);
    // The hook was not cut short: it ran and its note was committed.
    expect(existsSync(hookRan)).toBe(true);
    expect(
      await project.repo.git('log', '-1', '--format=%s', 'ralph/write-two-step-files-so-that-every'),
    ).toMatch(/hook notes after iteration 3/);
  });

  it('the limit in the header stays what it was when the goal completes', async () => {
    const project = await createGoalProject(twoFilePlan(), { '.ralph/.gitignore': 'runs/\nworktrees/\n' });
    terminals.defer(project.cleanup);
    const t = terminals.start(['goal', GOAL, '--max-iterations', '9'], {
      cwd: project.repo.dir,
      env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath }),
      columns: 80,
      rows: 24,
    });
    await t.see('Iteration 0/9');
    t.type('s');
    let screen = await t.see('complete — goal reached', 120_000);
    expect(header(screen)).toMatch(/Complete$/);
    // The files are read again after the end: the header keeps the run's figures.
    await sleep(1500);
    screen = t.screen();
    expect(screen.rows[1]).toContain('Iteration 3/9');
    expectCleanScreen(screen, 'goal complete 80×24');
    t.type('q');
    expect(await t.exited).toBe(0);
  });
});
