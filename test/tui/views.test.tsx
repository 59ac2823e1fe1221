/** The log, diff, picker, help and settings views, and their keys. */
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/ui/tui/session.js';
import { createFakeSession, happyRun, prdSummary } from './fake-session.js';
import { KEY, type RenderedTui, renderTui } from './render-tui.js';

const TWO = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
];
const DIFF = [
  'commit 1111111111111111111111111111111111111111',
  'diff --git a/greet.txt b/greet.txt',
  '--- /dev/null',
  '+++ b/greet.txt',
  '@@ -0,0 +1,2 @@',
  '+hello',
  '-bye',
  ...Array.from({ length: 60 }, (_, i) => `+line ${i + 1}`),
].join('\n');

let tui: RenderedTui | undefined;
afterEach(() => {
  tui?.unmount();
  tui = undefined;
});

async function setup(extra: Partial<Parameters<typeof createFakeSession>[0]> = {}) {
  const session = createFakeSession({
    prds: [prdSummary('main', TWO), prdSummary('auth', TWO.slice(0, 1), { project: 'Auth service' })],
    scripts: { main: happyRun('main', TWO), auth: happyRun('auth', TWO.slice(0, 1)) },
    diffs: { 'US-001': DIFF, '-': 'diff --git a/wip.txt b/wip.txt\n+work in progress\n' },
    ...extra,
  });
  tui = await renderTui(session, { columns: 100, rows: 24 });
  return { session, tui };
}

const text = (i: number): SessionEvent => ({
  type: 'agent-event',
  iteration: 1,
  storyId: 'US-001',
  event: { type: 'assistant-text', text: `note number ${i}` },
});

describe('log view (t)', () => {
  it('shows the agent stream as cards: text, tool calls with icon and argument, folded results', async () => {
    const { tui, session } = await setup();
    await tui.press('t');
    await tui.see('Nothing yet');
    await tui.press('s');
    session.advanceTo('main', 'story-passed');
    const frame = await tui.see('passed on attempt 1');
    expect(frame).toContain('── iteration 1 · US-001 Add greeting · attempt 1/3');
    expect(frame).toContain('I will implement Add greeting.');
    expect(frame).toContain('✎ Write us-001.txt  ✓');
    expect(frame).toContain('↳ File created: us-001.txt');
    expect(frame).toContain('$ Bash git commit -m "feat: US-001"  ✓');
    expect(frame).toContain('↳ [main abc1234] feat  (+1 lines)');
    expect(frame).toContain('▶ check npm test: passed');
    expect(frame).not.toContain('1 file changed');
    await tui.press('t');
    await tui.see('Stories');
  });

  it('follows the tail; j/k, PgUp/PgDn, g and G scroll', async () => {
    const { tui, session } = await setup();
    await tui.press('t');
    for (let i = 1; i <= 60; i++) session.emit('main', text(i));
    let frame = await tui.see('note number 60');
    expect(frame).toContain('following (60 lines)');
    expect(frame).not.toContain('note number 40\n');
    await tui.press('g');
    frame = await tui.see('lines 1–');
    expect(frame).toContain('note number 1\n');
    await tui.press('j', KEY.down);
    frame = await tui.see('lines 3–');
    expect(frame).not.toContain('note number 2\n');
    await tui.press(KEY.pageDown);
    await tui.see(/lines 2\d–/);
    await tui.press('k', KEY.up, KEY.pageUp);
    await tui.see('lines 1–');
    // While scrolled up, new cards do not move the view.
    session.emit('main', text(61));
    frame = await tui.see('of 61');
    expect(frame).toContain('lines 1–');
    expect(frame).toContain('note number 1\n');
    await tui.press('G');
    frame = await tui.see('note number 61');
    expect(frame).toContain('following (61 lines)');
  });
});

describe('diff view (d)', () => {
  it('shows the uncommitted diff for a story not done yet', async () => {
    const { tui, session } = await setup();
    await tui.press('d');
    const frame = await tui.see('+work in progress');
    expect(frame).toContain('Diff — uncommitted changes');
    expect(session.calls).toContain('diff main -');
  });

  it("shows a done story's commits, scrollable", async () => {
    const { tui, session } = await setup();
    await tui.press('s');
    session.advanceTo('main', 'story-passed');
    await tui.see('✓ US-001');
    await tui.press('k', 'd');
    let frame = await tui.see('Diff — US-001 commits');
    expect(session.calls).toContain('diff main US-001');
    expect(frame).toContain('+hello');
    expect(frame).toContain('-bye');
    expect(frame).toContain('@@ -0,0 +1,2 @@');
    await tui.press('G');
    frame = await tui.see('+line 60');
    expect(frame).not.toContain('+hello');
    await tui.press('g', 'j');
    frame = await tui.see('lines 2–');
    await tui.press(KEY.pageDown, KEY.pageUp, 'k');
    await tui.see('lines 1–');
    await tui.press(KEY.escape);
    await tui.see('Stories');
  });

  it('shows why a diff could not be made', async () => {
    const { tui } = await setup({ diffs: {} });
    await tui.press('d');
    await tui.see('no diff');
    await tui.press('d');
    await tui.see('Stories');
  });
});

describe('picker (l)', () => {
  it('lists every PRD with progress and state; Enter opens one; s/p/x act on the highlighted one', async () => {
    const { tui, session } = await setup();
    await tui.press('l');
    let frame = await tui.see('PRDs');
    expect(frame).toMatch(/main\s+0\/2\s+Ready/);
    expect(frame).toMatch(/auth\s+0\/1\s+Ready.*Auth service/);
    await tui.press('j', 's');
    expect(session.calls).toEqual(['start auth']);
    session.advanceTo('auth', 'tool-started');
    frame = await tui.see(/auth\s+0\/1\s+Running/);
    await tui.press('p');
    await tui.see(/auth\s+0\/1\s+Pausing/);
    await tui.press('x');
    expect(session.calls.filter((c) => !c.startsWith('reload'))).toEqual([
      'start auth',
      'pause auth',
      'stop auth',
    ]);
    await tui.press(KEY.enter);
    frame = await tui.see('Auth service (auth)');
    expect(frame).toContain('Stories');
    await tui.press('l', 'k', KEY.escape);
    await tui.see('Auth service (auth)');
  });
});

describe('help (?)', () => {
  it('lists the keys; any key closes it', async () => {
    const { tui, session } = await setup();
    await tui.press('?');
    const frame = await tui.see('Keys');
    for (const key of ['pause: finish this iteration', 'stop now', 'five iterations', 'settings', 'merge'])
      expect(frame).toContain(key);
    await tui.press('s');
    await tui.see('Stories');
    expect(session.calls).toEqual([]);
  });
});

describe('settings (,)', () => {
  it('toggles and cycles save at once through the session', async () => {
    const { tui, session } = await setup();
    await tui.press(',');
    let frame = await tui.see('Settings');
    expect(frame).toMatch(/Agent\s+claude/);
    expect(frame).toMatch(/Check 1\s+npm test/);
    await tui.press(KEY.right);
    frame = await tui.see(/Agent\s+codex/);
    expect(frame).toContain('saved');
    await tui.press(KEY.left, KEY.left);
    await tui.see(/Agent\s+cursor/);
    // Down to "Push on complete": model, check 1, add check, worktree, setup, push.
    await tui.press('j', 'j', 'j', 'j', 'j', 'j', KEY.enter);
    await tui.see(/Push on complete\s+on/);
    expect(session.calls).toContain('save {"onComplete":{"push":true}}');
    expect(session.config.get().onComplete.push).toBe(true);
  });

  it('edits text fields: model, a new check, removing a check', async () => {
    const { tui, session } = await setup();
    await tui.press(',', 'j', KEY.enter);
    await tui.see('Enter save');
    await tui.press('o', 'p', 'x', KEY.backspace, 'u', 's', KEY.enter);
    await tui.see(/Model\s+opus/);
    expect(session.config.get().agent.model).toBe('opus');
    await tui.press('j', 'j', KEY.enter, 'npm run lint', KEY.enter);
    await tui.see(/Check 2\s+npm run lint/);
    await tui.press('k', KEY.enter);
    for (let i = 0; i < 'npm test'.length; i++) await tui.press(KEY.backspace);
    await tui.press(KEY.enter);
    await tui.see(/Check 1\s+npm run lint/);
    expect(session.config.get().checks).toEqual(['npm run lint']);
  });

  it('Esc cancels an edit; invalid values are refused with the reasons', async () => {
    const { tui, session } = await setup({
      validate: (patch) =>
        patch.worktree?.setup?.includes('rm ')
          ? ['.ralph/config.yaml: worktree.setup: refused in this test']
          : [],
    });
    await tui.press(',', 'j', KEY.enter, 'x', KEY.escape);
    let frame = await tui.see(/Model\s+—/);
    expect(session.calls).toEqual([]);
    await tui.press('j', 'j', 'j', 'j', KEY.enter, 'rm -rf /', KEY.enter);
    frame = await tui.see('refused in this test');
    expect(frame).not.toContain('saved');
    expect(session.config.get().worktree.setup).toBeNull();
    await tui.press(KEY.escape);
    await tui.see('Stories');
  });
});
