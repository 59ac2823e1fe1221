/** A parallel run's lanes in the TUI model: folded from the events' worker tags. */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/events/run-event.js';
import { reduceLanes } from '../../src/ui/tui/model/lanes.js';
import { belowTopPanel, computeLayout, lanesHeight } from '../../src/ui/tui/model/layout.js';
import { initialRunView, reduceRun } from '../../src/ui/tui/model/run-view.js';
import type { SessionEvent } from '../../src/ui/tui/session.js';
import { prdSummary } from './fake-session.js';

const summary = prdSummary('demo', [
  { id: 'A-1', title: 'Alpha' },
  { id: 'B-1', title: 'Beta' },
]);
const started = (worker: number, storyId: string, title: string): RunEvent => ({
  type: 'iteration-started',
  iteration: worker,
  maxIterations: 7,
  storyId,
  title,
  attempt: 1,
  maxAttempts: 3,
  headBefore: 'a'.repeat(40),
  worker,
});
const RUN: SessionEvent[] = [
  {
    type: 'run-started',
    name: 'demo',
    project: 'Demo',
    agent: 'claude',
    cwd: '/x',
    maxIterations: 7,
    remaining: 2,
    resumed: false,
  },
  { type: 'parallel-started', workers: 3, prdBranch: 'ralph/demo' },
  {
    type: 'worktree-created',
    path: '/x/A-1',
    branch: 'ralph-stories/demo/A-1',
    base: 'ralph/demo',
    newBranch: true,
    worker: 1,
    storyId: 'A-1',
  },
  started(1, 'A-1', 'Alpha'),
  started(2, 'B-1', 'Beta'),
  {
    type: 'agent-event',
    iteration: 1,
    storyId: 'A-1',
    event: { type: 'tool-started', id: 't1', name: 'Write', summary: 'a.txt' },
    worker: 1,
  },
  {
    type: 'story-verified',
    storyId: 'B-1',
    attempt: 1,
    branch: 'ralph-stories/demo/B-1',
    commits: 1,
    worker: 2,
  },
  { type: 'integration-started', storyId: 'B-1', onto: 'ralph/demo', queued: 0, worker: 'merge' },
  { type: 'check-started', iteration: 2, command: 'npm test', worker: 'merge', storyId: 'B-1' },
];

const fold = (events: readonly SessionEvent[]) =>
  events.reduce((run, e, i) => reduceRun(run, summary, e, 1_000 * (i + 1)), initialRunView(summary));

describe('parallel lanes', () => {
  it('a lane per busy worker with its story, attempt and activity; the merge queue with the story landing', () => {
    const run = fold(RUN);
    expect(run.lanes?.workers).toBe(3);
    expect(run.lanes?.busy[1]).toMatchObject({
      storyId: 'A-1',
      title: 'Alpha',
      attempt: 1,
      activity: '⚙ Write a.txt',
    });
    expect(run.lanes?.busy[2]).toBeUndefined();
    expect(run.lanes?.merge).toMatchObject({ storyId: 'B-1', activity: 'check: npm test', waiting: [] });
    // Both stories are in progress at once, not only the latest started.
    expect(run.stories['A-1']?.state).toBe('in-progress');
    expect(run.stories['B-1']?.state).toBe('in-progress');
  });

  it('counts landings, says why one was refused, and goes away when the run ends', () => {
    const landed = fold([
      ...RUN,
      {
        type: 'story-passed',
        iteration: 2,
        storyId: 'B-1',
        title: 'Beta',
        attempt: 1,
        commits: [],
        costUsd: 0,
        durationMs: 1,
        worker: 'merge',
      },
    ]);
    expect(landed.lanes?.merge).toMatchObject({ storyId: null, landed: 1, activity: '✓ B-1 landed' });
    const refused = reduceLanes(
      landed.lanes,
      {
        type: 'integration-failed',
        storyId: 'A-1',
        kind: 'conflict',
        files: ['a.txt'],
        landedMeanwhile: ['B-1'],
        worker: 'merge',
      },
      99,
    );
    expect(refused?.merge.activity).toBe('✗ A-1: conflict in a.txt; retried on the new tip');
    const finished = reduceRun(
      landed,
      summary,
      {
        type: 'run-finished',
        exitCode: 0,
        reason: 'all-done',
        message: 'done',
        passed: 2,
        total: 2,
        parked: [],
        costUsd: 0,
        iterations: 2,
      },
      100,
    );
    expect(finished.lanes).toBeNull();
  });

  it('a story that lost the race to land says so, its agent resolving on the merge lane, then lands after resolution', () => {
    const at = (e: RunEvent, ms: number, lanes: ReturnType<typeof reduceLanes>) => reduceLanes(lanes, e, ms);
    let lanes = fold(RUN).lanes;
    lanes = at(
      {
        type: 'resolution-started',
        storyId: 'A-1',
        iteration: 1,
        kind: 'conflict',
        files: ['REGISTRY.md'],
        landedMeanwhile: ['B-1'],
        agent: 'claude',
        worker: 'merge',
      },
      50_000,
      lanes,
    );
    expect(lanes?.merge).toMatchObject({
      storyId: 'A-1',
      startedAtMs: 50_000,
      activity: 'waits to land (conflict with B-1 in REGISTRY.md); resolving with claude',
    });
    lanes = at(
      {
        type: 'agent-event',
        iteration: 1,
        storyId: 'A-1',
        event: { type: 'tool-started', id: 't9', name: 'Bash', summary: 'sed -i REGISTRY.md' },
        worker: 'merge',
      },
      51_000,
      lanes,
    );
    expect(lanes?.merge.activity).toBe('resolving: ⚙ Bash sed -i REGISTRY.md');
    const passed: RunEvent = {
      type: 'story-passed',
      iteration: 1,
      storyId: 'A-1',
      title: 'Alpha',
      attempt: 1,
      commits: [],
      costUsd: 0,
      durationMs: 1,
      afterResolution: true,
      worker: 'merge',
    };
    expect(at(passed, 52_000, lanes)?.merge.activity).toBe('✓ A-1 landed after resolution');
    const requeued = at(
      { type: 'story-requeued', storyId: 'A-1', requeues: 1, maxRequeues: 5, reason: 'x', worker: 'merge' },
      52_000,
      lanes,
    );
    expect(requeued?.merge).toMatchObject({
      storyId: null,
      activity: '↻ A-1 requeued (1/5): redone from the new tip, lands next',
    });
  });

  it('a sequential run has no lanes', () => {
    expect(
      fold([RUN[0] as SessionEvent, { ...started(1, 'A-1', 'Alpha'), worker: undefined }]).lanes,
    ).toBeNull();
  });

  it('the lanes panel leaves the stories room on a short terminal', () => {
    const tall = computeLayout({ columns: 120, rows: 40 });
    expect(belowTopPanel(tall, lanesHeight(4))).toMatchObject({
      top: 8,
      rest: { bodyHeight: tall.bodyHeight - 8 },
    });
    const short = computeLayout({ columns: 120, rows: 16 });
    const { top, rest } = belowTopPanel(short, lanesHeight(8));
    expect(rest.bodyHeight).toBeGreaterThanOrEqual(6);
    expect(top + rest.bodyHeight).toBe(short.bodyHeight);
  });
});
