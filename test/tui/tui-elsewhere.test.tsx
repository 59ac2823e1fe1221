/** A second TUI on a run another process holds: it follows that run instead of freezing at what it read. */
import { afterEach, describe, expect, it } from 'vitest';
import type { PrdSummary } from '../../src/ui/tui/session.js';
import { createFakeSession, prdSummary } from './fake-session.js';
import { type RenderedTui, renderTui } from './render-tui.js';

const STORIES = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
];

let tui: RenderedTui | undefined;
afterEach(() => {
  tui?.unmount();
  tui = undefined;
});

const withStatuses = (summary: PrdSummary, done: number, running: boolean): PrdSummary => ({
  ...summary,
  running,
  stories: summary.stories.map((s, i) => ({ ...s, status: i < done ? 'done' : 'todo' })),
});

describe('a run held by another process', () => {
  it('is read again while it runs: its stories follow that run, and the badge goes when it ends', async () => {
    const opened = withStatuses(prdSummary('main', STORIES), 0, true);
    const session = createFakeSession({ prds: [opened] });
    // What the other process has done by the time the TUI reads the PRD again.
    let elsewhere = opened;
    session.reloadPrd = async () => structuredClone(elsewhere);
    tui = await renderTui(session, { columns: 100, rows: 30 }, { elsewhereMs: 50 });
    await tui.see('Running in another process');

    elsewhere = withStatuses(opened, 1, true);
    await tui.see(/✓ US-001/);
    expect(tui.frame()).toContain('Running in another process');

    elsewhere = withStatuses(opened, 2, false);
    await tui.see(/✓ US-002/);
    await tui.see('Complete');
    expect(tui.frame()).not.toContain('Running in another process');
  });
});
