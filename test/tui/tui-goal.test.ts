/**
 * `ralph goal` in a real terminal, with the real Claude Code against the
 * scripted model: the TUI shows the goal run as a tab whose list is the
 * steps the agent makes, turning ✓ one by one, with the mode in the header
 * and the hook tasks in the details.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { commitFile, createGoalProject, result, twoFilePlan } from '../support/goal-project.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { terminalEnv, terminalTests } from './terminal.js';

// Three agent iterations in a terminal: minutes on a loaded two-core machine, not seconds.
vi.setConfig({ testTimeout: 240_000 });

const terminals = terminalTests();
const NAME = 'write-two-step-files';

describe('a goal run in the TUI', () => {
  it('lists the steps as they are made and turns them ✓, with the mode in the header and hook tasks in the details', async () => {
    const scratch = await makeTempDir('tui-goal');
    terminals.defer(() => removeTempDir(scratch));
    const release = join(scratch, 'release');
    const project = await createGoalProject(
      twoFilePlan([
        {
          tool: 'Bash',
          input: {
            command: `while [ ! -f '${release}' ]; do sleep 0.1; done`,
            description: 'wait for the test',
          },
        },
      ]),
      {
        '.ralph/.gitignore': 'runs/\nworktrees/\n',
        '.ralph/config.yaml': 'hooks:\n  - id: notes\n    run: echo "$ITERATION" >> NOTES.md\n',
      },
    );
    terminals.defer(project.cleanup);
    const t = terminals.start(['goal', 'Write two step files\n\nFirst greet.txt, then bye.txt.'], {
      cwd: project.repo.dir,
      env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath }),
      columns: 120,
      rows: 32,
    });

    let screen = await t.see('press s to start');
    expect(screen.rows[0]).toContain(`Write two step files (${NAME}) goal · planning`);
    expect(screen.text).toContain('Steps 0/0 done');
    expect(screen.text).toContain('No steps yet: the first iteration plans them.');
    t.type('s');

    // Iteration 3 works on step-1 (and waits for the test): step-0 is done.
    screen = await t.see(/● step-1 Create bye\.txt/, 120_000);
    expect(screen.rows[0]).toContain('goal · executing');
    expect(screen.text).toMatch(/✓ step-0 Create greet\.txt/);
    expect(screen.text).toContain('Steps 1/2 done');
    expect(screen.rows[1]).toContain(`branch ralph/${NAME}`);
    // The focused step's details, then the hook tasks of the iterations so far.
    expect(screen.text).toContain('Hook tasks');
    expect(screen.text).toMatch(/✓ notes after iteration 2: committed [0-9a-f]{7}/);

    await writeFile(release, '');
    screen = await t.see(`✓ ${NAME} complete — goal reached`, 120_000);
    expect(screen.text).toMatch(/✓ step-0 +Create greet\.txt/);
    expect(screen.text).toMatch(/✓ step-1 +Create bye\.txt/);
    t.type('q');
    expect(await t.exited).toBe(0);
    expect(t.shell()).toContain(`${NAME}: 2/2 steps done, complete; merge it with: ralph merge ${NAME}`);
    // The steps' work is on the run's branch.
    expect(await project.repo.git('show', `ralph/${NAME}:bye.txt`)).toBe('bye');
  });

  it('with CI set on a terminal, prints the plain lines instead of a blank screen', async () => {
    const project = await createGoalProject(
      {
        1: [
          [
            commitFile('greet.txt', 'hello', 'feat: greet'),
            result({
              status: 'goal-complete',
              summary: 'Wrote it',
              goalCompleteSummary: 'greet.txt exists.',
            }),
          ],
        ],
      },
      { '.ralph/.gitignore': 'runs/\nworktrees/\n' },
    );
    terminals.defer(project.cleanup);
    const t = terminals.start(['goal', 'Write greet.txt', '--no-worktree'], {
      cwd: project.repo.dir,
      env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath, CI: 'true' }),
      columns: 120,
      rows: 32,
    });
    const screen = await t.see('goal complete in iteration 1', 120_000);
    expect(screen.text).toContain('starting goal write-greet.txt');
    expect(await t.exited).toBe(0);
  });
});
