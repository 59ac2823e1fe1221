/**
 * After a worktree run, the user edits the PRD in the main checkout. The next
 * run takes those edits into its own copy (statuses stay the run's); before
 * it does, `ralph status` (text and --json) and `ralph list` show the same
 * reading the run will use, say that the edits are waiting, and write nothing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopProject, type LoopProject, prdMd } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';

let project: LoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const PRD = '.ralph/prds/demo/prd.md';
const LIVE = '.ralph/worktrees/demo/.ralph/prds/demo/prd.md';

describe('the main checkout’s edits between runs', () => {
  it('status and list show the story added in the main checkout as todo, and the next run lands it', async () => {
    project = await createLoopProject(
      { [PRD]: prdMd([{ id: 'US-001', title: 'Add greeting' }]) },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
      },
    );
    const first = await project.run(['demo', '--headless']);
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
    const cwd = project.repo.dir;

    // The user adds US-002 and retitles US-001 in the main checkout, without merging the run first.
    const main = (await project.read(PRD)).replace('### US-001: Add greeting', '### US-001: Add a greeting');
    const added = prdMd([
      { id: 'US-001', title: 'Add greeting' },
      { id: 'US-002', title: 'Add farewell' },
    ]).split('\n### US-002')[1];
    await writeFile(join(cwd, PRD), `${main}\n### US-002${added}`);
    const liveBefore = await project.read(LIVE);

    const status = await runRalph(['status', 'demo'], { cwd });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).toContain('  ✓ US-001  Add a greeting');
    expect(status.stdout).toMatch(/ {2}○ US-002 {2}Add farewell\n/);
    expect(status.stdout).toContain('1/2 done · next: US-002 Add farewell');
    expect(status.stdout).toContain(
      `  edited in the main checkout (${PRD}): added US-002; changed US-001; shown as the next run reads them, which takes them into its copy`,
    );

    const json = await runRalph(['status', 'demo', '--json'], { cwd });
    const report = JSON.parse(json.stdout) as {
      done: number;
      total: number;
      stories: { id: string; status: string }[];
      mainEdits: { added: string[]; changed: string[]; removed: string[] } | null;
    };
    expect({ done: report.done, total: report.total }).toEqual({ done: 1, total: 2 });
    expect(report.stories.map((s) => [s.id, s.status])).toEqual([
      ['US-001', 'done'],
      ['US-002', 'todo'],
    ]);
    expect(report.mainEdits).toEqual({ added: ['US-002'], changed: ['US-001'], removed: [] });

    const list = await runRalph(['list'], { cwd });
    expect(list.stdout).toMatch(/^demo {2}1\/2 /m);

    // Read-only: the run's copy and its branch are as the run left them.
    expect(await project.read(LIVE)).toBe(liveBefore);
    expect(await project.repo.git('-C', '.ralph/worktrees/demo', 'status', '--porcelain')).toBe('');

    const second = await project.run(['demo', '--headless']);
    expect(second.exitCode, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toContain(
      "took the main checkout's edits to the task file (added US-002; changed US-001",
    );
    expect(await readFile(join(cwd, '.ralph/worktrees/demo/bye.txt'), 'utf8')).toBe('bye\n');

    const after = await runRalph(['status', 'demo'], { cwd });
    expect(after.stdout).toContain('2/2 done · next: none');
    // The main copy is now one the branch has seen: nothing is waiting.
    expect(after.stdout).not.toContain('edited in the main checkout');
  }, 240_000);

  it('a main checkout the branch already has (the copy it took) changes nothing in status', async () => {
    project = await createLoopProject(
      {
        [PRD]: prdMd([
          { id: 'US-001', title: 'Add greeting' },
          { id: 'US-002', title: 'Add farewell' },
        ]),
      },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
      },
    );
    const first = await project.run(['demo', '--headless', '-n', '1']);
    expect(first.stdout + first.stderr).toContain('US-001');
    const status = await runRalph(['status', 'demo', '--json'], { cwd: project.repo.dir });
    const report = JSON.parse(status.stdout) as { done: number; total: number; mainEdits: unknown };
    // The main checkout still has every story todo, the run's copy US-001 done: the run's reading wins.
    expect(report).toMatchObject({ done: 1, total: 2, mainEdits: null });
  }, 180_000);
});
