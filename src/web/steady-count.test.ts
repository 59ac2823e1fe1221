import { describe, expect, it } from 'vitest';
import { steadyView } from './steady-count.js';
import type { ItemView, RunView } from './view.js';

const item = (id: string, done: boolean): ItemView => ({
  id,
  title: id,
  state: done ? 'done' : 'todo',
  attempts: 0,
  durationMs: 0,
  costUsd: 0,
  reason: null,
  dependsOn: [],
});

const view = (done: readonly boolean[], error: string | null = null): RunView => {
  const items = done.map((d, i) => item(`US-00${i + 1}`, d));
  return {
    name: 'demo',
    kind: 'prd',
    title: 'Demo',
    phase: 'running',
    detail: '',
    inFlight: [],
    stoppedAt: null,
    done: items.filter((i) => i.state === 'done').length,
    total: items.length,
    iterations: 0,
    costUsd: 0,
    live: null,
    control: null,
    items,
    questions: [],
    error,
  };
};

describe('steadyView', () => {
  it('keeps a story shown done through a read that misses it, and shows a real reopening once it lasts', () => {
    let memory = steadyView(view([true, true, false]), undefined, 0).memory;
    // A read mid-landing: the worktree's task file rewritten, one pass missing.
    const glitch = steadyView(view([true, false, false]), memory, 100);
    expect(glitch.view.done).toBe(2);
    memory = glitch.memory;
    // Back to the truth, then further.
    const next = steadyView(view([true, true, true]), memory, 200);
    expect(next.view.done).toBe(3);
    // Reopened for real: shown once the reads have said so for two seconds.
    let reopened = steadyView(view([true, true, false]), next.memory, 300);
    expect(reopened.view.done).toBe(3);
    reopened = steadyView(view([true, true, false]), reopened.memory, 2_400);
    expect(reopened.view.done).toBe(2);
  });

  it('keeps the stories as shown through a read that could not parse the task file', () => {
    const { memory } = steadyView(view([true, false]), undefined, 0);
    const broken = { ...view([]), error: 'the task file does not read: prd.json:1:1' };
    const held = steadyView(broken, memory, 50);
    expect(held.view.done).toBe(1);
    expect(held.view.items).toHaveLength(2);
  });
});
