/**
 * The forecast: after each pass the plain log's line, `ralph status` and the
 * TUI's header say what the rest will take at the run's own pace (stories
 * left × the median passed story, attempts included), with a range and the
 * number of stories it rests on. The real Claude Code runs against the
 * scripted model.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { EventOf } from '../../src/events/run-event.js';
import { createLoopProject, prdJson, THREE_STORIES } from '../support/loop-project.js';
import { OVERLAP_FILES, overlapAgent, promptsOnly, SIX_STORIES } from '../support/overlap-prds.js';
import { parallelProject, readEvents } from '../support/parallel-project.js';
import { runRalph } from '../support/ralph-cli.js';
import { fail, implement } from '../support/story-script.js';
import { inProject, terminalTests } from '../tui/terminal.js';

vi.setConfig({ testTimeout: 240_000 });

const terminals = terminalTests();

const TIME = String.raw`~\d+(?:m \d\ds|s)(?: \(\d+(?:m \d\ds|s)–\d+(?:m \d\ds|s)\))?`;
const COST = String.raw`~\$[\d.]+(?: \(\$[\d.]+–\$[\d.]+\))?`;

describe('the forecast', () => {
  it('is on each passed story’s line, in ralph status and in the TUI header, from the run’s own pace', async () => {
    const project = await createLoopProject(
      { '.ralph/prds/demo/prd.json': prdJson(THREE_STORIES) },
      {
        // US-001 takes two attempts: its pace counts both.
        'US-001': [fail('US-001', 'not yet'), implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
        'US-003': [implement('US-003', 'Add shout', 'shout.txt', 'HEY\n')],
      },
    );
    terminals.defer(project.cleanup);

    const run = await project.run(['demo', '--no-worktree', '-n', '3']);
    expect(run.exitCode).toBe(3);
    expect(run.stdout).toMatch(
      new RegExp(
        `✓ US-001 passed on attempt 2: .* — 2 stories left: ${TIME} and ${COST}, at the pace of 1 passed story\\n`,
      ),
    );
    expect(run.stdout).toMatch(
      new RegExp(
        `✓ US-002 passed on attempt 1: .* — 1 story left: ${TIME} and ${COST}, at the pace of 2 passed stories\\n`,
      ),
    );

    const state = JSON.parse(await readFile(join(project.repo.dir, '.ralph/runs/demo/state.json'), 'utf8'));
    for (const id of ['US-001', 'US-002']) {
      // Wall time from the attempt's start to its verdict: the agent's time and more.
      expect(state.stories[id].elapsedMs).toBeGreaterThanOrEqual(state.stories[id].durationMs);
    }

    const ralph = (args: string[]) => runRalph(args, { cwd: project.repo.dir, env: project.claude.env });
    const status = await ralph(['status', 'demo']);
    expect(status.stdout).toMatch(
      new RegExp(`\\nforecast: 1 story left: ${TIME} and ${COST}, at the pace of 2 passed stories\\n`),
    );
    const json = JSON.parse((await ralph(['status', 'demo', '--json'])).stdout);
    const paces = ['US-001', 'US-002'].map((id) => state.stories[id].elapsedMs).sort((a, b) => a - b);
    expect(json.forecast).toMatchObject({ storiesLeft: 1, basedOn: 2, lanes: 1 });
    // One story left at the median of two: halfway between them.
    expect(json.forecast.ms.estimate).toBeCloseTo((paces[0] + paces[1]) / 2, 0);
    expect(json.forecast.ms.low).toBeLessThanOrEqual(json.forecast.ms.estimate);
    expect(json.forecast.ms.high).toBeGreaterThanOrEqual(json.forecast.ms.estimate);

    // The TUI at 80×24 shows it in the header from the start, and drops it once nothing is left.
    const t = terminals.start(['run', 'demo', '--no-worktree'], inProject(project, 80, 24));
    const ready = await t.see('Ready — press s to start');
    expect(ready.rows[1]).toMatch(new RegExp(`left ${TIME} ~\\$[\\d.]+`));
    t.type('s');
    const done = await t.see('demo complete', 120_000);
    expect(done.text).not.toContain('left ~');
    t.type('q');
    expect(await t.exited).toBe(0);
  });

  it('in a parallel run is divided among the workers, and a story that raced to land counts its resolution', async () => {
    const stories = SIX_STORIES.slice(0, 3).map(({ id, title }) => ({ id, title }));
    // Every story appends to one file: the second of the two started together loses the race to land.
    const project = await parallelProject(prdJson(stories), promptsOnly(stories), {
      files: OVERLAP_FILES.append,
      wrap: overlapAgent('append', stories),
    });
    terminals.defer(project.cleanup);
    const run = await project.run(['demo', '--headless', '--parallel', '2']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `\\[merge US-00\\d\\] ✓ US-00\\d passed on attempt 1: .* — 2 stories left: ${TIME}(?: and ${COST})?, at the pace of 1 passed story, 2 at a time\\n`,
      ),
    );

    const passed = (await readEvents(project)).filter(
      (e) => e.type === 'story-passed',
    ) as unknown as EventOf<'story-passed'>[];
    expect(passed.map((e) => e.forecast?.storiesLeft ?? 0)).toEqual([2, 1, 0]);
    expect(passed[0]?.forecast).toMatchObject({ basedOn: 1, lanes: 2 });
    // One story left: one lane works on it.
    expect(passed[1]?.forecast).toMatchObject({ basedOn: 2, lanes: 1 });
    const resolved = passed.filter((e) => e.afterResolution === true);
    expect(resolved.length).toBeGreaterThan(0);
    const state = JSON.parse(await readFile(join(project.repo.dir, '.ralph/runs/demo/state.json'), 'utf8'));
    for (const e of resolved) {
      const story = state.stories[e.storyId];
      // Its wall time holds the resolution as its agent time does: the attempt's and the resolution's.
      expect(story.elapsedMs).toBeGreaterThanOrEqual(story.durationMs);
    }
  });

  it('says nothing before a story has passed', async () => {
    const project = await createLoopProject({ '.ralph/prds/demo/prd.json': prdJson(THREE_STORIES) }, {});
    terminals.defer(project.cleanup);
    const status = await runRalph(['status', 'demo'], { cwd: project.repo.dir, env: project.claude.env });
    expect(status.exitCode).toBe(0);
    expect(status.stdout).not.toContain('forecast');
    const json = JSON.parse(
      (await runRalph(['status', 'demo', '--json'], { cwd: project.repo.dir, env: project.claude.env }))
        .stdout,
    );
    expect(json.forecast).toBeNull();
  });
});
