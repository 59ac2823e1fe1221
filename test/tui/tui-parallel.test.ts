/**
 * `ralph run --parallel` in a real terminal, with the real Claude Code
 * against the scripted model: a lane per worker (story, attempt, what the
 * agent does, elapsed) and the merge queue, above the stories.
 */
import { describe, expect, it, vi } from 'vitest';
import { createLoopProject, prdJson } from '../support/loop-project.js';
import type { Turn } from '../support/model-script.js';
import { OVERLAP_FILES, overlapAgent, overlapResolution, promptsOnly } from '../support/overlap-prds.js';
import { implement } from '../support/story-script.js';
import { terminalEnv, terminalTests } from './terminal.js';

// Each test runs ralph (and agents) in a terminal: minutes on a loaded two-core machine, not seconds.
vi.setConfig({ testTimeout: 240_000 });

const terminals = terminalTests();
const work = (id: string, title: string): Turn[] => implement(id, title, `${id}.txt`, `${id}\n`);
/** Its first answer held back, so both workers are seen busy at once. */
const slow = (id: string, title: string): Turn[] =>
  work(id, title).map((t, i) => (i === 0 ? { ...t, delayMs: 6000 } : t));

describe('parallel lanes in the TUI', () => {
  it('shows each worker with its story and the agent’s activity, then the merge queue landing them', async () => {
    const project = await createLoopProject(
      {
        '.ralph/.gitignore': 'runs/\nworktrees/\n',
        '.ralph/prds/demo/prd.json': prdJson([
          { id: 'P-1', title: 'First' },
          { id: 'P-2', title: 'Second' },
          { id: 'P-3', title: 'Third', dependsOn: ['P-1'] },
        ]),
      },
      { 'P-1': [slow('P-1', 'First')], 'P-2': [slow('P-2', 'Second')], 'P-3': [work('P-3', 'Third')] },
    );
    terminals.defer(project.cleanup);
    const t = terminals.start(['run', 'demo', '--parallel', '2'], {
      cwd: project.repo.dir,
      env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath }),
      columns: 110,
      rows: 32,
    });
    await t.see('press s to start');
    t.type('s');
    // One line per worker: its story, attempt, clock and activity; the merge queue below them.
    const lane = (worker: number) => new RegExp(`w${worker} ● P-[12] (First|Second) 1/3 · \\d+s · \\S`);
    let screen = await t.see((s) => lane(1).test(s.text) && lane(2).test(s.text), 90_000);
    expect(screen.text).toContain('Workers 2/2 busy');
    expect(screen.text).toMatch(/│merge idle/);
    // The lanes sit above the stories, which are both in progress.
    const lanesRow = screen.rows.findIndex((r) => r.includes('Workers 2/2 busy'));
    const storiesRow = screen.rows.findIndex((r) => r.includes('Stories 0/3 done'));
    expect(lanesRow).toBeGreaterThanOrEqual(0);
    expect(storiesRow).toBeGreaterThan(lanesRow);
    expect(screen.text).toMatch(/● P-1 First/);
    expect(screen.text).toMatch(/● P-2 Second/);
    expect(screen.wrapped).toEqual([]);

    // What the agent does shows in its lane.
    await t.see(/w\d ● P-[12] \S+ 1\/3 · \d+s · ⚙ (Write|Bash)/, 90_000);
    screen = await t.see(/merge queue: [12] landed/, 90_000);
    screen = await t.see('demo complete — every story passed', 120_000);
    expect(screen.text).toContain('Total: 3/3 passed');
    t.type('q');
    expect(await t.exited).toBe(0);
  });

  it('at 80x24: a story that lost the race to land waits on the merge lane while its agent resolves, then lands', async () => {
    const stories = [
      { id: 'R-1', title: 'First' },
      { id: 'R-2', title: 'Second' },
    ];
    const project = await createLoopProject(
      {
        '.ralph/.gitignore': 'runs/\nworktrees/\n',
        '.ralph/prds/demo/prd.json': prdJson(stories),
        ...OVERLAP_FILES.append,
      },
      promptsOnly(stories),
      {
        wrap: overlapAgent('append', stories, {
          // The resolution's first answer is held back: the merge lane is seen waiting on it.
          resolve: (kind, s) =>
            overlapResolution(kind, s).map((t, i) => (i === 0 ? { ...t, delayMs: 6000 } : t)),
        }),
      },
    );
    terminals.defer(project.cleanup);
    const t = terminals.start(['run', 'demo', '--parallel', '2'], {
      cwd: project.repo.dir,
      env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath }),
      columns: 80,
      rows: 24,
    });
    await t.see('press s to start');
    t.type('s');
    const screen = await t.see(
      /merge ⇡ R-[12] · \d+s · waits to land \(conflict with R-[12] in REGISTRY/,
      120_000,
    );
    expect(screen.text).toMatch(/merge queue: 1 landed/);
    expect(screen.wrapped).toEqual([]);
    await t.see('demo complete — every story passed', 120_000);
    t.type('q');
    expect(await t.exited).toBe(0);
  });
});
