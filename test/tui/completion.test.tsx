/** The completion screen, quitting, and the hand-offs to `ralph new` / `ralph edit`. */
import { afterEach, describe, expect, it } from 'vitest';
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

const terminal = () => {
  const calls: string[] = [];
  return {
    calls,
    release: async () => {
      calls.push('release');
    },
    restore: () => {
      calls.push('restore');
    },
  };
};

describe('completion screen', () => {
  it('shows each story with its time, attempts and cost, and the totals', async () => {
    const { tui } = await finishedRun();
    const frame = tui.frame();
    expect(frame).toContain('✓ main complete — every story passed');
    for (const [id, title] of [
      ['US-001', 'Add greeting'],
      ['US-002', 'Add farewell'],
      ['US-003', 'Add shout'],
    ])
      expect(frame).toMatch(new RegExp(`✓ ${id}\\s+${title}\\s+1\\.8s\\s+1\\s+\\$0\\.05`));
    // The run's wall time (the scripted run ends at once), not the stories' 3 × 1.8 s summed.
    const seconds = Number(/Total: 3\/3 passed · 3 iterations · (\d+)s · \$0\.15/.exec(frame)?.[1]);
    expect(seconds).toBeLessThan(5);
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
    session.emit('main', { type: 'push-started', branch: 'ralph/main' });
    await tui.see(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Push: pushing ralph\/main/);
    session.emit('main', { type: 'branch-pushed', branch: 'ralph/main', remote: 'origin' });
    session.emit('main', { type: 'pr-started', branch: 'ralph/main', base: 'main' });
    session.emit('main', { type: 'pr-created', url: 'https://github.com/acme/demo/pull/7', existing: false });
    const frame = await tui.see('https://github.com/acme/demo/pull/7');
    expect(frame).toContain('✓ Push: ralph/main → origin');
    expect(frame).toContain('✓ Pull request: opened');
    expect(frame).not.toContain('are off');
  });

  it('shows why a push failed, and the pull request not made', async () => {
    const { tui, session } = await finishedRun();
    session.emit('main', { type: 'push-started', branch: 'ralph/main' });
    session.emit('main', {
      type: 'push-failed',
      branch: 'ralph/main',
      remote: 'origin',
      message: 'no remote named origin; add one with `git remote add origin <url>`',
    });
    session.emit('main', { type: 'pr-failed', message: 'not created: the branch could not be pushed' });
    const frame = await tui.see('✗ Pull request failed');
    expect(frame).toContain('✗ Push failed: no remote named origin');
    expect(frame).toContain('✗ Pull request failed: not created: the branch could not be pushed');
  });

  it('m merges; c asks first, then cleans; results show on the screen', async () => {
    const { tui, session } = await finishedRun({
      prds: [prdSummary('main', THREE, { worktree: '/work/.ralph/worktrees/main' })],
    });
    await tui.press('m');
    await tui.see('✓ Merge: merged ralph/main');
    await tui.press('c');
    await tui.see('Remove the worktree of main (branch ralph/main stays)? (y/n)');
    await tui.press('n');
    expect(session.calls.filter((c) => /^(merge|clean)/.test(c))).toEqual(['merge main']);
    await tui.press('c', 'y');
    await tui.see('✓ Clean: removed the worktree of main');
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
    const frame = await tui.see('■ main: stopped with work left');
    expect(frame).toContain('US-002 (parked)');
    expect(frame).toMatch(/✗ US-002\s+Add farewell/);
    expect(frame).toContain('Total: 1/3 passed · 1 iteration');
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
  it('n asks for a name, hands the terminal over, and comes back with the new PRD selected', async () => {
    const session = createFakeSession({ prds: [prdSummary('main', THREE)], withHandOffs: true });
    const lease = terminal();
    tui = await renderTui(session, undefined, { terminal: lease });
    await tui.press('n');
    await tui.see('Name:');
    await tui.press('b', 'i', 'l', 'l', 's', KEY.enter);
    await tui.see('New PRD bills: done');
    expect(session.calls).toEqual(['new bills']);
    expect(lease.calls).toEqual(['release', 'restore']);
    await tui.press('x');
    const frame = await tui.see('Written by the agent');
    expect(frame).toContain('(bills)');
  });

  it('e refused by the session says why, in the TUI, without leaving it', async () => {
    const session = createFakeSession({ prds: [prdSummary('json', THREE)], withHandOffs: true });
    const lease = terminal();
    tui = await renderTui(session, undefined, { terminal: lease });
    await tui.press('e');
    await tui.see('ralph edit works on prd.md files; json is a prd-json');
    expect(lease.calls).toEqual([]);
  });

  it('refuses while a loop runs, and says so when the session cannot hand off', async () => {
    const session = createFakeSession({
      prds: [prdSummary('main', THREE)],
      scripts: { main: happyRun('main', THREE) },
      withHandOffs: true,
    });
    tui = await renderTui(session, undefined, { terminal: terminal() });
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
