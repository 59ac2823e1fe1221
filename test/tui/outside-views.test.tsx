/**
 * The TUI over a fake session: a wait on the world outside is a countdown
 * above the footer, and the header's iteration numbers are the runner's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/ui/tui/session.js';
import { createFakeSession, prdSummary } from './fake-session.js';
import { type RenderedTui, renderTui } from './render-tui.js';

let tui: RenderedTui | undefined;
afterEach(() => {
  tui?.unmount();
  tui = undefined;
});

const ONE = [{ id: 'US-001', title: 'Add greeting' }];

describe('waiting on the world outside', () => {
  it('counts down to the next try, and shows the iteration numbers the runner gave', async () => {
    const session = createFakeSession({
      prds: [prdSummary('main', ONE, { iteration: 7 })],
      scripts: { main: [] },
      stepMs: null,
    });
    tui = await renderTui(session, { columns: 100, rows: 24 });
    await tui.see('Iteration 7/13');
    await tui.press('s');
    const events: SessionEvent[] = [
      {
        type: 'run-started',
        name: 'main',
        project: 'Project main',
        agent: 'claude',
        cwd: '/work/main',
        maxIterations: 6,
        remaining: 1,
        resumed: true,
      },
      {
        type: 'iteration-started',
        iteration: 8,
        maxIterations: 6,
        lastIteration: 13,
        headBefore: 'abc',
        storyId: 'US-001',
        title: 'Add greeting',
        attempt: 1,
        maxAttempts: 3,
      },
    ];
    for (const event of events) session.emit('main', event);
    await tui.see('Iteration 8/13');
    session.emit('main', {
      type: 'waiting',
      reason: 'outage',
      message: 'claude cannot reach its API: 3 API requests in a row failed (no connection)',
      until: new Date(Date.now() + 125_000).toISOString(),
      waitMs: 125_000,
      agent: 'claude',
      storyId: 'US-001',
    });
    const frame = await tui.see(/waiting \(outage\) · next try in 2m 0[45]s · claude cannot reach its API/);
    // The attempt was given back: the story shows no attempt.
    expect(frame).not.toMatch(/attempts 1/);
    // The next attempt takes the next number; the session's last moves on with it.
    session.emit('main', { ...(events[1] as SessionEvent), iteration: 9, lastIteration: 14 } as SessionEvent);
    await tui.see('Iteration 9/14');
  });
});
