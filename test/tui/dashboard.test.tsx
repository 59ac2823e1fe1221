/** The dashboard: ready state, start, live progress, controls, and the layout at any size. */
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeSession, type FakeSession, happyRun, prdSummary } from './fake-session.js';
import { KEY, type RenderedTui, renderTui } from './render-tui.js';

const LONG_TITLE = 'Add a farewell message that is far too long to fit on one line of any list';
const THREE = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: LONG_TITLE },
  { id: 'US-003', title: 'Add shout' },
];

let tui: RenderedTui | undefined;
afterEach(() => {
  tui?.unmount();
  tui = undefined;
});

async function setup(
  extra: Partial<Parameters<typeof createFakeSession>[0]> = {},
  size = { columns: 100, rows: 30 },
) {
  const session = createFakeSession({
    prds: [prdSummary('main', THREE), prdSummary('auth', THREE.slice(0, 1))],
    scripts: { main: happyRun('main', THREE), auth: happyRun('auth', THREE.slice(0, 1)) },
    ...extra,
  });
  tui = await renderTui(session, size);
  return { session, tui };
}

const lineWith = (frame: string, text: string) => frame.split('\n').find((l) => l.includes(text)) ?? '';

describe('dashboard', () => {
  it('opens ready: the state, the limit, every story as todo, and the tabs', async () => {
    const { tui, session } = await setup();
    const frame = await tui.see('Ready — press s to start');
    expect(frame).toContain('Iteration 0/8');
    expect(frame).toContain('branch ralph/main');
    expect(frame).toContain('○ US-001 Add greeting');
    expect(frame).toContain('○ US-002 Add a farewell');
    expect(frame).toContain('○ US-003 Add shout');
    expect(frame).toContain('1 main 0/3');
    expect(frame).toContain('2 auth 0/1');
    expect(session.calls).toEqual([]);
  });

  it('s starts the loop; the header, story marks, details and activity follow the events', async () => {
    const { tui, session } = await setup();
    await tui.press('s');
    expect(session.calls).toEqual(['start main']);
    await tui.see('Starting…');
    session.advanceTo('main', 'tool-started');
    let frame = await tui.see('Running');
    expect(frame).toContain('Iteration 1/8');
    expect(lineWith(frame, 'US-001 Add greeting')).toContain('● US-001');
    expect(frame).toContain('attempts 1/3');
    expect(lineWith(frame, '▸')).toContain('⚙ Write us-001.txt');

    session.advanceTo('main', 'story-passed');
    session.advanceTo('main', 'assistant-text');
    frame = await tui.see('Iteration 2/8');
    expect(lineWith(frame, 'US-001 Add greeting')).toContain('✓ US-001');
    expect(frame).toContain('● US-002 Add a farewell');
    expect(frame).toContain('$0.05');
    expect(frame).toContain('1 main 1/3');
    expect(lineWith(frame, '▸')).toContain('I will implement');
    // The details follow the story being worked on.
    expect(frame).toContain('As a user I want add a farewell');
  });

  it('truncates long titles to the panel instead of wrapping them', async () => {
    const { tui } = await setup();
    const frame = await tui.see('US-002 Add a farewell');
    const listed = frame.split('\n').filter((l) => l.includes('Add a farewell'));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatch(/US-002 Add a farewell[^│]*…│/);
    expect(frame).not.toContain('any list');
  });

  it('j/k and arrows move through the stories; the details show the chosen one; Esc follows again', async () => {
    const { tui, session } = await setup();
    session.emit('main', {
      type: 'attempt-failed',
      iteration: 1,
      storyId: 'US-003',
      attempt: 1,
      maxAttempts: 3,
      kind: 'no-commit',
      reason: 'DONE without a new commit',
      willRetry: true,
    });
    await tui.press('j', 'j');
    let frame = await tui.see('US-003: Add shout');
    expect(frame).toContain('Last failure');
    expect(frame).toContain('DONE without a new commit');
    await tui.press(KEY.up);
    frame = await tui.see(`US-002: ${LONG_TITLE.slice(0, 20)}`);
    await tui.press('k', 'k');
    await tui.see('US-001: Add greeting');
  });

  it('Esc drops the pick: the details follow the story being worked on again', async () => {
    const { tui, session } = await setup();
    await tui.press('s');
    session.advanceTo('main', 'story-passed');
    session.advanceTo('main', 'iteration-started');
    await tui.see('● US-002');
    await tui.press('j');
    await tui.see('US-003: Add shout');
    await tui.press(KEY.escape);
    await tui.see(`US-002: ${LONG_TITLE.slice(0, 20)}`);
  });

  it('shows the progress entry of a passed story after the PRD is read again', async () => {
    const { tui, session } = await setup();
    await tui.press('s');
    session.advanceTo('main', 'story-passed');
    await tui.press('k');
    const frame = await tui.see('Progress');
    expect(frame).toContain('Implemented Add greeting');
    expect(session.calls).toContain('reload main');
  });

  it('+ and - change the iteration limit by five through the session', async () => {
    const { tui, session } = await setup();
    await tui.press('+');
    await tui.see('Iteration 0/13');
    await tui.press('-', '-');
    await tui.see('Iteration 0/3');
    expect(session.calls).toEqual(['adjust main 5', 'adjust main -5', 'adjust main -5']);
    await tui.press('s');
    session.advance('main');
    await tui.see('Iteration 0/3');
  });

  it('p pauses after the iteration: the loop ends at the next boundary', async () => {
    const { tui, session } = await setup();
    await tui.press('p');
    await tui.see('main is not running');
    await tui.press('s');
    session.advanceTo('main', 'tool-started');
    await tui.press('p');
    await tui.see('Pausing after this iteration');
    expect(session.calls).toContain('pause main');
    session.advanceTo('main', 'story-passed');
    session.advance('main');
    const frame = await tui.see('Paused — press s to resume');
    expect(frame).toContain('Stories 1/3 done');
    expect(frame).not.toContain('stopped');
    expect(session.isRunning('main')).toBe(false);
  });

  it('x stops now', async () => {
    const { tui, session } = await setup();
    await tui.press('s');
    session.advanceTo('main', 'tool-started');
    await tui.press('x');
    expect(session.calls).toContain('stop main');
    await tui.see('interrupted attempt was rolled back');
  });

  it('Ctrl-C quits once every loop has finished its iteration; a second Ctrl-C stops them now', async () => {
    const { tui, session } = await setup();
    await tui.press('s');
    session.advanceTo('main', 'tool-started');
    const exited = tui.controller.exited;
    await tui.press(KEY.ctrlC);
    await tui.see('Ctrl-C again to stop now');
    expect(session.calls).toContain('pause main');
    await tui.press(KEY.ctrlC);
    expect(session.calls).toContain('stop main');
    expect(await exited).toBe(130);
  });

  it('a start that fails is shown, and the PRD is ready again', async () => {
    const { tui } = await setup({ startError: 'agent "claude" not found' });
    await tui.press('s');
    const frame = await tui.see('Could not start: agent "claude" not found');
    expect(frame).toContain('Iteration 0/8');
  });

  it('number keys switch PRDs; each keeps its own loop', async () => {
    const { tui, session } = await setup();
    await tui.press('2');
    let frame = await tui.see('Project auth (auth)');
    expect(frame).not.toContain('US-002');
    await tui.press('s');
    session.advanceTo('auth', 'tool-started');
    await tui.see('Running');
    await tui.press('1');
    frame = await tui.see('Project main (main) Ready');
    expect(frame).toContain('2 auth 0/1 ●');
    await tui.press('9');
    await tui.see('Project main (main)');
  });

  it('stacks the list above the details under 80 columns, within the width', async () => {
    const { tui } = await setup({}, { columns: 60, rows: 30 });
    const frame = await tui.see('Stories 0/3 done');
    const lines = frame.split('\n');
    const list = lines.findIndex((l) => l.includes('Stories 0/3 done'));
    const details = lines.findIndex((l) => l.includes('US-001: Add greeting'));
    expect(details).toBeGreaterThan(lines.findIndex((l) => l.includes('○ US-003')));
    expect(details).toBeGreaterThan(list);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(60);
    expect(lines.length).toBeLessThanOrEqual(29);
  });

  it('re-lays out on resize: side by side when wide, stacked when narrow', async () => {
    const { tui } = await setup({}, { columns: 120, rows: 30 });
    let frame = await tui.see('Stories 0/3 done');
    expect(lineWith(frame, 'Stories 0/3 done')).toContain('US-001: Add greeting');
    await tui.resize(70, 30);
    frame = await tui.see('Stories 0/3 done');
    expect(lineWith(frame, 'Stories 0/3 done')).not.toContain('US-001: Add greeting');
    for (const line of frame.split('\n')) expect([...line].length).toBeLessThanOrEqual(70);
  });

  it('scrolls a long story list to keep the focused story visible', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      id: `US-${String(i + 1).padStart(3, '0')}`,
      title: `Story ${i + 1}`,
    }));
    const session: FakeSession = createFakeSession({ prds: [prdSummary('big', many)] });
    tui = await renderTui(session, { columns: 100, rows: 20 });
    let frame = await tui.see('1–');
    expect(frame).not.toContain('US-040');
    await tui.press(...Array.from({ length: 39 }, () => 'j'));
    frame = await tui.see('US-040: Story 40');
    expect(frame).toContain('of 40');
    expect(frame).not.toContain('US-001 Story 1\n');
  });
});
