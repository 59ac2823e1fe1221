/** The completion screen, quitting, and the hand-offs to `ralph new` / `ralph edit`. */
import { afterEach, describe, expect, it } from 'vitest';
import { HAND_OFF_EXIT_CODE } from '../../src/ui/tui/session.js';
import { createFakeSession, happyRun, prdSummary } from './fake-session.js';
import { KEY, type RenderedTui, renderTui } from './render-tui.js';

const THREE = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
  { id: 'US-003', title: 'Add shout' },
];

let tui: RenderedTui | undefined;
afterEach(() => {
  tui?.unmount();
  tui = undefined;
});

async function finishedRun(extra: Partial<Parameters<typeof createFakeSession>[0]> = {}) {
  const session = createFakeSession({
    prds: [prdSummary('main', THREE), prdSummary('auth', THREE.slice(0, 1))],
    scripts: { main: happyRun('main', THREE) },
    withMergeClean: true,
    ...extra,
  });
  tui = await renderTui(session);
  await tui.press('s');
  session.advanceTo('main', 'run-finished');
  await tui.see('main complete');
  return { session, tui };
}

describe('completion screen', () => {
  it('shows each story with its time, attempts and cost, and the totals', async () => {
    const { tui } = await finishedRun();
    const frame = tui.frame();
    expect(frame).toContain('all stories passed');
    for (const [id, title] of [
      ['US-001', 'Add greeting'],
      ['US-002', 'Add farewell'],
      ['US-003', 'Add shout'],
    ])
      expect(frame).toMatch(new RegExp(`✓ ${id}\\s+${title}\\s+1\\.8s\\s+1\\s+\\$0\\.05`));
    expect(frame).toMatch(/Total: 3\/3 passed · 3 iterations · \d+s · \$0\.15/);
    expect(frame).toContain('Push and pull request on completion are off');
  });

  it('shows push and pull-request progress and the PR URL', async () => {
    const { tui, session } = await finishedRun({
      settings: {
        agent: { provider: 'claude', model: null },
        checks: [],
        worktree: { enabled: true, setup: null },
        onComplete: { push: true, createPR: true },
        notifications: { bell: true, desktop: false },
      },
    });
    session.emit('main', { type: 'on-complete', step: 'push', status: 'running' });
    await tui.see('… Push: running');
    session.emit('main', { type: 'on-complete', step: 'push', status: 'done', detail: 'origin ralph/main' });
    session.emit('main', {
      type: 'on-complete',
      step: 'pull-request',
      status: 'done',
      url: 'https://github.com/acme/demo/pull/7',
    });
    const frame = await tui.see('https://github.com/acme/demo/pull/7');
    expect(frame).toContain('✓ Push: done — origin ralph/main');
    expect(frame).toContain('✓ Pull request: done https://github.com/acme/demo/pull/7');
    expect(frame).not.toContain('are off');
  });

  it('m merges, c cleans, through the session', async () => {
    const { tui, session } = await finishedRun();
    await tui.press('m');
    await tui.see('merged ralph/main');
    await tui.press('c');
    await tui.see('removed the worktree of main');
    expect(session.calls.filter((c) => /^(merge|clean)/.test(c))).toEqual(['merge main', 'clean main']);
  });

  it('m and c say so when the session cannot merge or clean', async () => {
    const { tui } = await finishedRun({ withMergeClean: false });
    await tui.press('m');
    await tui.see('merge: not available here');
    await tui.press('c');
    await tui.see('clean: not available here');
  });

  it('l opens the PRD picker; Esc returns to the dashboard; q quits with the run exit code', async () => {
    const { tui } = await finishedRun();
    await tui.press('l');
    await tui.see('PRDs');
    await tui.press(KEY.escape);
    await tui.see('Stories 3/3 done');
    await tui.press('q');
    expect(await tui.controller.exited).toBe(0);
  });

  it('a stopped run shows the stop and its reason', async () => {
    const session = createFakeSession({
      prds: [prdSummary('main', THREE)],
      scripts: { main: happyRun('main', THREE) },
    });
    tui = await renderTui(session);
    await tui.press('s');
    session.advanceTo('main', 'story-passed');
    session.emit('main', { type: 'story-parked', storyId: 'US-002', attempts: 3, reason: 'npm test failed' });
    session.emit('main', {
      type: 'run-finished',
      exitCode: 1,
      reason: 'blocked',
      message: 'stopped with work left: US-002 (parked)',
      passed: 1,
      total: 3,
      parked: ['US-002'],
      costUsd: 0.2,
      iterations: 4,
    });
    const frame = await tui.see('main stopped');
    expect(frame).toContain('US-002 (parked)');
    expect(frame).toMatch(/✗ US-002\s+Add farewell/);
    expect(frame).toContain('Total: 1/3 passed · 4 iterations');
    await tui.press('q');
    expect(await tui.controller.exited).toBe(1);
  });
});

describe('quit', () => {
  it('q quits at once when nothing runs', async () => {
    const session = createFakeSession({ prds: [prdSummary('main', THREE)] });
    tui = await renderTui(session);
    await tui.press('q');
    expect(await tui.controller.exited).toBe(0);
    expect(session.listeners()).toBe(0);
  });

  it('q while running asks first; n keeps going; y stops the loop, then quits', async () => {
    const session = createFakeSession({
      prds: [prdSummary('main', THREE)],
      scripts: { main: happyRun('main', THREE) },
    });
    tui = await renderTui(session);
    await tui.press('s');
    session.advanceTo('main', 'tool-started');
    await tui.press('q');
    await tui.see('Stop it and quit? (y/n)');
    await tui.press('n');
    await tui.see('s start · p pause');
    expect(session.isRunning('main')).toBe(true);
    await tui.press('q', 'y');
    expect(session.calls).toContain('stop main');
    expect(await tui.controller.exited).toBe(130);
    expect(session.isRunning('main')).toBe(false);
  });

  it('waits for a loop that takes its time to stop; x there stops it now', async () => {
    const session = createFakeSession({
      prds: [prdSummary('main', THREE)],
      scripts: { main: happyRun('main', THREE) },
    });
    // A session whose stop is slow: the loop ends only when the test says so.
    session.stopNow = (name) => {
      session.calls.push(`stop ${name}`);
    };
    tui = await renderTui(session);
    await tui.press('s');
    session.advanceTo('main', 'tool-started');
    await tui.press('q', 'y');
    await tui.see('Stopping… waiting for the loops to end');
    await tui.press('s');
    expect(session.calls.filter((c) => c.startsWith('start'))).toHaveLength(1);
    let exited = false;
    void tui.controller.exited.then(() => {
      exited = true;
    });
    await tui.press('x');
    expect(session.calls.filter((c) => c === 'stop main')).toHaveLength(2);
    expect(exited).toBe(false);
    session.emit('main', {
      type: 'run-finished',
      exitCode: 130,
      reason: 'interrupted',
      message: 'stopped',
      passed: 0,
      total: 3,
      parked: [],
      costUsd: 0,
      iterations: 1,
    });
    expect(await tui.controller.exited).toBe(130);
  });

  it('quit() from outside (the terminal closing) stops the loops now, then exits', async () => {
    const session = createFakeSession({
      prds: [prdSummary('main', THREE)],
      scripts: { main: happyRun('main', THREE) },
    });
    tui = await renderTui(session);
    await tui.press('s');
    session.advanceTo('main', 'tool-started');
    tui.controller.quit();
    expect(session.calls).toContain('stop main');
    expect(await tui.controller.exited).toBe(130);
  });
});

describe('hand-offs (n, e)', () => {
  it('n hands off to `ralph new`, e to `ralph edit <name>`', async () => {
    const session = createFakeSession({ prds: [prdSummary('main', THREE)], withHandOffs: true });
    tui = await renderTui(session);
    await tui.press('n');
    expect(await tui.controller.exited).toBe(HAND_OFF_EXIT_CODE);
    expect(session.calls).toEqual(['new']);
    tui.unmount();

    const again = createFakeSession({ prds: [prdSummary('main', THREE)], withHandOffs: true });
    tui = await renderTui(again);
    await tui.press('e');
    expect(await tui.controller.exited).toBe(HAND_OFF_EXIT_CODE);
    expect(again.calls).toEqual(['edit main']);
  });

  it('refuses while a loop runs, and says so when the session cannot hand off', async () => {
    const session = createFakeSession({
      prds: [prdSummary('main', THREE)],
      scripts: { main: happyRun('main', THREE) },
      withHandOffs: true,
    });
    tui = await renderTui(session);
    await tui.press('s', 'n');
    await tui.see('stop the running loops before writing a new PRD');
    await tui.press('e');
    await tui.see('stop the running loops before editing a PRD');
    expect(session.calls).toEqual(['start main']);
    tui.unmount();

    tui = await renderTui(createFakeSession({ prds: [prdSummary('main', THREE)] }));
    await tui.press('n');
    await tui.see('new PRD: not available here');
  });
});
