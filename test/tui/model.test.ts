/** The TUI's pure parts: the event reducer, the bounded log, scrolling, settings edits, layout. */
import { describe, expect, it } from 'vitest';
import { diffLines } from '../../src/ui/tui/model/diff-lines.js';
import { clip, duration, storyDuration, wrap } from '../../src/ui/tui/model/format.js';
import { handleKey, type KeyPress } from '../../src/ui/tui/model/keys.js';
import { computeLayout } from '../../src/ui/tui/model/layout.js';
import { emptyLog, LOG_CAPACITY, logEvent } from '../../src/ui/tui/model/log-cards.js';
import { cardLines, logLines } from '../../src/ui/tui/model/log-lines.js';
import { emptyRing, pushRing, ringItems } from '../../src/ui/tui/model/ring.js';
import { initialRunView, lastIteration, reduceRun } from '../../src/ui/tui/model/run-view.js';
import { settingRows, textPatch, togglePatch } from '../../src/ui/tui/model/settings-rows.js';
import { focusedIndex, storyRows, windowStart } from '../../src/ui/tui/model/stories.js';
import { initialState, reduce, type TuiState } from '../../src/ui/tui/model/tui-state.js';
import type { SessionEvent } from '../../src/ui/tui/session.js';
import { createFakeSession, defaultSettings, happyRun, prdSummary } from './fake-session.js';

const STORIES = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
];
const summary = prdSummary('main', STORIES);
const ALL = { handOff: true, merge: true, clean: true };
const METRICS = { pageSize: 10, logLines: 100, diffLines: 50, helpPages: 1 };

/** A run the user stopped, as the engine ends it. */
const STOPPED: SessionEvent = {
  type: 'run-finished',
  exitCode: 130,
  reason: 'interrupted',
  message: 'stopped',
  passed: 0,
  total: 2,
  parked: [],
  costUsd: 0,
  iterations: 0,
};

function fold(events: readonly SessionEvent[]) {
  // One second between events.
  return events.reduce((run, e, i) => reduceRun(run, summary, e, 1_000 * (i + 1)), initialRunView(summary));
}

describe('run view reducer', () => {
  it('follows a run: iterations, story states, costs, durations, outcome', () => {
    const events = happyRun('main', STORIES);
    const mid = fold(events.slice(0, events.findIndex((e) => e.type === 'story-passed') + 2));
    expect(mid.phase).toBe('running');
    expect(mid.iteration).toBe(2);
    expect(mid.current?.storyId).toBe('US-002');
    expect(mid.stories['US-001']).toMatchObject({
      state: 'done',
      attempts: 1,
      costUsd: 0.05,
      durationMs: 1800,
    });
    expect(mid.stories['US-002']?.state).toBe('in-progress');

    const end = fold(events);
    expect(end.phase).toBe('finished');
    expect(end.outcome).toMatchObject({ exitCode: 0, reason: 'all-done' });
    expect(end.costUsd).toBeCloseTo(0.1);
    expect(end.current).toBeNull();
    expect(end.finishedAtMs).toBeGreaterThan(end.startedAtMs ?? Infinity);
  });

  it('numbers iterations as the run state does, over sessions; the limit counts this session', () => {
    const events = happyRun('main', STORIES).map((e) =>
      e.type === 'iteration-started' ? { ...e, iteration: e.iteration + 7 } : e,
    );
    const run = fold(events);
    expect(run.iteration).toBe(9);
    expect(run.counted).toBe(2);
    // Seven allowed this session, two used: up to iteration 14.
    expect(lastIteration(run)).toBe(14);
  });

  it('a stop by the user is a pause the next s resumes, not the end of the run', () => {
    const run = fold([
      happyRun('main', STORIES)[0] as SessionEvent,
      { type: 'stop-requested', how: 'graceful' },
      STOPPED,
    ]);
    expect(run.phase).toBe('paused');
    expect(run.stopping).toBe('none');
  });

  it('records failures and parking, and shows the latest activity', () => {
    const run = fold([
      happyRun('main', STORIES)[0] as SessionEvent,
      happyRun('main', STORIES)[1] as SessionEvent,
      {
        type: 'attempt-failed',
        iteration: 1,
        storyId: 'US-001',
        attempt: 3,
        maxAttempts: 3,
        kind: 'check-failed',
        reason: 'npm test failed\nexpected 1',
        willRetry: false,
      },
      { type: 'story-parked', storyId: 'US-001', attempts: 3, reason: 'npm test failed' },
    ]);
    expect(run.stories['US-001']).toMatchObject({ state: 'parked', lastFailure: 'npm test failed' });
    expect(run.activity).toContain('US-001 attempt 3 failed: npm test failed');
    expect(run.activity).not.toContain('expected 1');
  });

  it('marks a pause or a stop from the loop itself', () => {
    expect(fold([{ type: 'stop-requested', how: 'graceful' }]).stopping).toBe('pause');
    expect(fold([{ type: 'stop-requested', how: 'immediate' }]).stopping).toBe('stop');
  });
});

describe('log cards', () => {
  it('folds tool results into their call and check results into the check', () => {
    const log = happyRun('main', STORIES.slice(0, 1)).reduce(logEvent, emptyLog());
    const tools = ringItems(log.cards).filter((c) => c.kind === 'tool');
    expect(tools.map((t) => [t.name, t.status])).toEqual([
      ['Write', 'ok'],
      ['Bash', 'ok'],
    ]);
    const check = ringItems(log.cards).find((c) => c.kind === 'check');
    expect(check).toMatchObject({ command: 'npm test', status: 'passed', exitCode: 0 });
  });

  it('keeps at most the capacity however long the run, dropping the oldest', () => {
    let log = emptyLog();
    for (let i = 0; i < 10_000; i++) {
      log = logEvent(log, {
        type: 'agent-event',
        iteration: 1,
        storyId: 'US-001',
        event: { type: 'assistant-text', text: `message ${i}` },
      });
    }
    const items = ringItems(log.cards);
    expect(items).toHaveLength(LOG_CAPACITY);
    expect(log.cards.dropped).toBe(10_000 - LOG_CAPACITY);
    expect(items[0]).toMatchObject({ text: `message ${10_000 - LOG_CAPACITY}` });
    expect(items.at(-1)).toMatchObject({ text: 'message 9999' });
  });

  it('lays cards out in lines: long text folded, tool output folded to its first line', () => {
    const long = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    const text = cardLines({ kind: 'text', seq: 0, text: long }, 40);
    expect(text).toHaveLength(13);
    expect(text.at(-1)?.text).toContain('28 more lines');
    const tool = cardLines(
      {
        kind: 'tool',
        seq: 1,
        id: 't',
        name: 'Bash',
        summary: 'npm test',
        status: 'failed',
        output: 'a\nb\nc',
      },
      40,
    );
    expect(tool.map((l) => l.text)).toEqual(['$ Bash npm test  ✗', '  ↳ a  (+2 lines)']);
    expect(tool[0]?.style).toBe('bad');
    expect(logLines([{ kind: 'note', seq: 2, tone: 'good', text: 'x'.repeat(90) }], 40)).toHaveLength(3);
  });

  it('a ring refuses a capacity below one', () => {
    expect(() => emptyRing(0)).toThrow(RangeError);
    expect(ringItems(pushRing(pushRing(emptyRing<number>(1), 1), 2))).toEqual([2]);
    let ring = emptyRing<number>(100);
    for (let i = 0; i < 1000; i++) ring = pushRing(ring, i);
    expect(ringItems(ring)).toEqual(Array.from({ length: 100 }, (_, i) => 900 + i));
    expect(ring.dropped).toBe(900);
  });
});

describe('stories', () => {
  const run = initialRunView(summary);
  it('focuses the pick, else the current story, else the first not done', () => {
    const rows = storyRows(
      summary.stories.map((s, i) => (i === 0 ? { ...s, status: 'done' } : s)),
      run,
    );
    expect(focusedIndex(rows, null, null)).toBe(1);
    expect(focusedIndex(rows, 'US-001', 'US-002')).toBe(0);
    expect(focusedIndex(rows, 'nope', 'US-001')).toBe(0);
  });

  it('scrolls a window to keep the focused row in view', () => {
    expect(windowStart(5, 10, 4)).toBe(0);
    expect(windowStart(100, 10, 0)).toBe(0);
    expect(windowStart(100, 10, 50)).toBe(45);
    expect(windowStart(100, 10, 99)).toBe(90);
  });
});

describe('keys', () => {
  const base = (): TuiState =>
    initialState(createFakeSession({ prds: [summary, prdSummary('auth', STORIES)], scripts: {} }));
  const press = (state: TuiState, p: Partial<KeyPress> & { input?: string }) =>
    handleKey(state, { input: '', ...p }, METRICS, ALL);

  it('scrolls the log from the tail, and G follows it again', () => {
    let state: TuiState = { ...base(), view: { kind: 'log' } };
    state = press(state, { input: 'k' }).state;
    expect(state.prds[0]?.logTop).toBe(89);
    state = press(state, { pageUp: true }).state;
    expect(state.prds[0]?.logTop).toBe(79);
    state = press(state, { input: 'g' }).state;
    expect(state.prds[0]?.logTop).toBe(0);
    state = press(state, { input: 'G' }).state;
    expect(state.prds[0]?.logTop).toBeNull();
    state = press({ ...state, prds: state.prds.map((p) => ({ ...p, logTop: 89 })) }, { input: 'j' }).state;
    expect(state.prds[0]?.logTop).toBeNull();
  });

  it('s asks the session to start; a second s while it starts is refused', () => {
    const first = press(base(), { input: 's' });
    expect(first.effects).toEqual([{ type: 'start', name: 'main' }]);
    const second = press(first.state, { input: 's' });
    expect(second.effects).toEqual([]);
    expect(second.state.flash).toContain('already running');
  });

  it('hand-offs go to the session and keep the TUI; not while a loop runs', () => {
    const idle = press(base(), { input: 'e' });
    expect(idle.effects).toEqual([{ type: 'hand-off', request: { kind: 'edit', name: 'main' } }]);
    expect(idle.state.exit).toBeNull();
    expect(idle.state.handingOff).toBe(true);
    const running = press(press(base(), { input: 's' }).state, { input: 'n' });
    expect(running.effects).toEqual([]);
    expect(running.state.view.kind).toBe('dashboard');
  });

  it('quitting while running stops every loop, and exits once they have ended', () => {
    const started = press(press(base(), { input: 's' }).state, { input: '2' });
    const both = press(started.state, { input: 's' }).state;
    const confirm = press(both, { input: 'q' });
    expect(confirm.state.quit).toBe('confirm');
    const yes = press(confirm.state, { input: 'y' });
    expect(yes.effects).toEqual([
      { type: 'stop', name: 'main' },
      { type: 'stop', name: 'auth' },
    ]);
    const finished = (name: string, s: TuiState) =>
      reduce(s, {
        type: 'session-event',
        name,
        nowMs: 0,
        event: STOPPED,
      });
    const one = finished('main', yes.state);
    expect(one.exit).toBeNull();
    expect(finished('auth', one).exit).toBe(130);
  });
});

describe('settings rows', () => {
  const s = defaultSettings();
  it('toggles flip, the agent cycles both ways', () => {
    const rows = settingRows(s);
    const push = rows.find((r) => r.id === 'push');
    expect(push && togglePatch(push, s)).toEqual({ onComplete: { push: true } });
    const agent = rows[0];
    expect(agent && togglePatch(agent, s, 1)).toEqual({ agent: { provider: 'codex' } });
    expect(agent && togglePatch(agent, s, -1)).toEqual({ agent: { provider: 'cursor' } });
  });

  it('text edits: an emptied check is removed, an unchanged value saves nothing', () => {
    const rows = settingRows({ ...s, checks: ['npm test', 'npm run lint'] });
    const check = rows.find((r) => r.id === 'check' && r.index === 0);
    if (check?.id !== 'check') throw new Error('no check row');
    expect(textPatch(check, '  ', { ...s, checks: ['npm test', 'npm run lint'] })).toEqual({
      checks: ['npm run lint'],
    });
    expect(textPatch(check, 'npm test', { ...s, checks: ['npm test', 'npm run lint'] })).toBeNull();
    const model = rows.find((r) => r.id === 'model');
    if (model?.id !== 'model') throw new Error('no model row');
    expect(textPatch(model, 'opus', s)).toEqual({ agent: { model: 'opus' } });
  });
});

describe('layout and text', () => {
  it('stacks the panels under 80 columns and never draws past the last row', () => {
    const wide = computeLayout({ columns: 120, rows: 40 });
    expect(wide.narrow).toBe(false);
    expect(wide.list.columns + wide.details.columns).toBe(120);
    expect(wide.bodyHeight + 5).toBe(39);
    const narrow = computeLayout({ columns: 60, rows: 30 });
    expect(narrow.narrow).toBe(true);
    expect(narrow.list.columns).toBe(60);
    expect(narrow.list.rows + narrow.details.rows).toBe(narrow.bodyHeight);
  });

  it('wraps words, cuts what cannot wrap, clips with an ellipsis', () => {
    expect(wrap('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(duration(3_723_000)).toBe('1h 02m');
    expect(duration(65_000)).toBe('1m 05s');
    expect(storyDuration(1_800)).toBe('1.8s');
    expect(storyDuration(65_000)).toBe('1m 05s');
  });

  it('styles diff lines by their first characters', () => {
    const lines = diffLines(
      'commit abc\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n ctx\n',
    );
    expect(lines.map((l) => l.style)).toEqual([
      'warn',
      'heading',
      'heading',
      'heading',
      'accent',
      'bad',
      'good',
      'text',
    ]);
    expect(diffLines('')).toEqual([{ text: 'No changes.', style: 'dim' }]);
  });
});
