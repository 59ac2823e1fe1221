/** A goal run in the TUI's pure parts: its events folded into the run view, its end noticed, its exit summary. */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/events/run-event.js';
import { notificationFor } from '../../src/notify/desktop.js';
import { exitSummary } from '../../src/ui/tui/exit-summary.js';
import { initialRunView, reduceRun } from '../../src/ui/tui/model/run-view.js';
import { allDone, statusBadge } from '../../src/ui/tui/model/status.js';
import { storyRows } from '../../src/ui/tui/model/stories.js';
import type { PrdSummary, SessionEvent } from '../../src/ui/tui/session.js';
import { prdSummary } from './fake-session.js';

const STEPS = [
  { id: 'step-0', title: 'Create greet.txt' },
  { id: 'step-1', title: 'Create bye.txt' },
];
const goal = (state: 'running' | 'complete' | 'stopped', mode: 'planning' | 'executing' | null) => ({
  goal: { text: 'Write two files', state, mode, hookTasks: [] },
});
const summary: PrdSummary = prdSummary('files', STEPS, goal('stopped', 'executing'));

const events: RunEvent[] = [
  {
    type: 'run-started',
    name: 'files',
    project: 'Write two files',
    agent: 'claude',
    cwd: '/repo',
    maxIterations: 51,
    remaining: 2,
    resumed: true,
    goal: {
      text: 'Write two files',
      iterationsBefore: 1,
      minIterations: 0,
      idleThreshold: 3,
      steps: { total: 2, completed: 0 },
    },
  },
  {
    type: 'iteration-started',
    iteration: 2,
    maxIterations: 51,
    mode: 'executing',
    step: { id: 'step-0', prompt: 'Create greet.txt' },
    headBefore: 'abc1234',
  },
  {
    type: 'agent-event',
    iteration: 2,
    event: { type: 'tool-started', id: 't1', name: 'Bash', summary: 'printf hello > greet.txt' },
  },
  { type: 'usage', iteration: 2, costUsd: 0.25, inputTokens: 10, outputTokens: 5 },
  {
    type: 'goal-result',
    iteration: 2,
    status: 'continue',
    summary: 'Wrote greet.txt',
    completedStepIds: ['step-0'],
    addedSteps: [],
    commits: [{ sha: 'def5678', subject: 'feat: greet' }],
    steps: { total: 2, completed: 1 },
  },
  { type: 'hook-started', iteration: 2, hookId: 'notes', kind: 'run', parallel: false, outputFile: '/o' },
  {
    type: 'hook-finished',
    iteration: 2,
    hookId: 'notes',
    kind: 'run',
    parallel: false,
    status: 'completed',
    exitCode: 0,
    durationMs: 5,
    outputFile: '/o',
  },
  {
    type: 'hook-committed',
    iteration: 2,
    hookId: 'notes',
    parallel: false,
    commits: [{ sha: '0123456789', subject: 'chore(ralph): hook notes after iteration 2' }],
  },
  {
    type: 'iteration-started',
    iteration: 3,
    maxIterations: 51,
    mode: 'reflecting',
    headBefore: 'def5678',
  },
];

const fold = (list: readonly SessionEvent[]) =>
  list.reduce((run, e, i) => reduceRun(run, summary, e, 1_000 * (i + 1)), initialRunView(summary));

describe('a goal run in the run view', () => {
  it('follows the iterations: the mode, the step worked on and done, the spend, the hook tasks', () => {
    const first = fold(events.slice(0, 4));
    expect(first).toMatchObject({ phase: 'running', mode: 'executing', iteration: 2, counted: 1 });
    expect(first.current).toMatchObject({ storyId: 'step-0', title: 'Create greet.txt', attempt: 1 });
    expect(first.stories['step-0']).toMatchObject({ state: 'in-progress', costUsd: 0.25 });
    expect(first.activity).toBe('⚙ Bash printf hello > greet.txt');
    // The header's limit: the last iteration this session may start.
    expect(first.maxIterations).toBe(50);

    const later = fold(events);
    expect(later.mode).toBe('reflecting');
    expect(later.current?.storyId).toBe('reflecting');
    expect(storyRows(summary.stories, later).map((r) => [r.story.id, r.state])).toEqual([
      ['step-0', 'done'],
      ['step-1', 'todo'],
    ]);
    expect(later.hooks).toEqual([
      { iteration: 2, hookId: 'notes', parallel: false, status: 'completed', detail: 'committed 0123456' },
    ]);
  });

  it('ends as the goal loop ends: complete, or paused when the user stopped it', () => {
    const done: RunEvent = {
      type: 'run-finished',
      exitCode: 0,
      reason: 'goal-complete',
      message: 'goal complete in iteration 3',
      passed: 2,
      total: 2,
      parked: [],
      costUsd: 0.5,
      iterations: 2,
      goal: { progressFile: '/p' },
    };
    const end = fold([...events, done]);
    expect(end).toMatchObject({ phase: 'finished', current: null, mode: null, costUsd: 0.5 });
    expect(end.outcome).toMatchObject({ exitCode: 0, reason: 'goal-complete' });
    expect(notificationFor('files', done)).toMatchObject({ title: 'ralph: files complete' });

    const paused = fold([...events, { ...done, exitCode: 130, reason: 'interrupted', message: 'stopped' }]);
    expect(paused.phase).toBe('paused');
    expect(notificationFor('files', { ...done, reason: 'interrupted' })).toBeNull();
  });

  it('is complete when its goal is, whatever its steps say, and says so on exit', () => {
    const complete = prdSummary(
      'files',
      STEPS.map((s) => ({ ...s, status: 'done' as const })),
      { ...goal('complete', null), worktree: '/w' },
    );
    expect(allDone(complete)).toBe(true);
    expect(allDone({ ...complete, ...goal('stopped', 'planning') })).toBe(false);
    expect(statusBadge(initialRunView(complete), complete).label).toBe('Complete — goal reached');
    expect(exitSummary([{ prd: complete, target: '--name files "Write two files"' }])).toEqual([
      'files: 2/2 steps done, complete; merge it with: ralph merge files',
    ]);
    expect(exitSummary([{ prd: summary, target: '--name files "Write two files"' }])).toEqual([
      'files: 0/2 steps done, stopped',
      '  resume with: ralph goal --name files "Write two files"',
    ]);
  });
});
