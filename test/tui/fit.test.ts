/** Pure parts that keep the TUI whole on any terminal: key bursts, hints and help that fit, the exit summary. */
import { describe, expect, it } from 'vitest';
import { canDrawLive } from '../../src/ui/tui/can-draw-live.js';
import { exitSummary } from '../../src/ui/tui/exit-summary.js';
import { HELP_KEYS, helpLines, helpPageCount } from '../../src/ui/tui/model/help-lines.js';
import { fitHints } from '../../src/ui/tui/model/hints.js';
import { type KeyFlags, keyPresses } from '../../src/ui/tui/model/key-input.js';
import { prdSummary } from './fake-session.js';

const NO_FLAGS: KeyFlags = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageUp: false,
  pageDown: false,
  return: false,
  escape: false,
  ctrl: false,
  backspace: false,
  delete: false,
};

describe('key bursts', () => {
  it('splits keys that arrived in one read, each as Ink reads a key on its own', () => {
    expect(keyPresses('jjj', NO_FLAGS).map((p) => p.input)).toEqual(['j', 'j', 'j']);
    expect(keyPresses('+\r\x7f\x03', NO_FLAGS)).toEqual([
      { input: '+' },
      { input: '', enter: true },
      { input: '', backspace: true },
      { input: 'c', ctrl: true },
    ]);
  });

  it('keeps one key, a special key and a paste into a text field whole', () => {
    expect(keyPresses('q', NO_FLAGS)).toHaveLength(1);
    expect(keyPresses('', { ...NO_FLAGS, upArrow: true })[0]?.up).toBe(true);
    expect(keyPresses('npm test', NO_FLAGS, true).map((p) => p.input)).toEqual(['npm test']);
  });
});

describe('footer hints', () => {
  const hints = ['s start', 'p pause', 'x stop', 't log'];
  it('shows whole hints only, the first ones first, and always the ones that must stay', () => {
    expect(fitHints(hints, ['? help', 'q quit'], 200)).toBe(
      's start · p pause · x stop · t log · ? help · q quit',
    );
    const narrow = fitHints(hints, ['? help', 'q quit'], 35);
    expect(narrow).toBe('s start · p pause · ? help · q quit');
    expect(narrow.length).toBe(35);
    // A hint that does not fit is skipped; a shorter one after it may still fit.
    expect(fitHints(hints, ['? help', 'q quit'], 34)).toBe('s start · x stop · ? help · q quit');
    expect(fitHints(hints, ['? help', 'q quit'], 10)).toBe('? help · q quit');
  });
});

describe('help', () => {
  it('wraps every key to the width and pages it to the height, losing none', () => {
    for (const columns of [120, 80, 60, 40]) {
      const lines = helpLines(columns);
      for (const line of lines) expect([...line.key, ...line.text].length).toBeLessThanOrEqual(columns);
      for (const [key] of HELP_KEYS) expect(lines.some((l) => l.key.trim() === key)).toBe(true);
    }
    expect(helpPageCount(120, 34)).toBe(1);
    expect(helpPageCount(60, 14)).toBeGreaterThan(1);
  });
});

describe('exit summary', () => {
  it('says what passed, what is left and how to resume; a finished PRD how to merge', () => {
    const left = prdSummary('main', [
      { id: 'US-001', title: 'A', status: 'done' },
      { id: 'US-002', title: 'B' },
      { id: 'US-003', title: 'C', status: 'parked' },
    ]);
    const done = prdSummary('docs', [{ id: 'US-001', title: 'A', status: 'done' }], {
      worktree: '/w/.ralph/worktrees/docs',
    });
    expect(
      exitSummary([
        { prd: left, target: 'main' },
        { prd: done, target: 'docs' },
      ]),
    ).toEqual([
      'main: 1/3 stories passed; left: US-002; parked after their retries: US-003',
      '  resume with: ralph run main',
      'docs: 1/1 stories passed, complete; merge it with: ralph merge docs',
    ]);
  });
});

describe('live drawing', () => {
  it('is off where Ink draws only the last frame: CI set to anything but 0 or false', () => {
    expect(canDrawLive({})).toBe(true);
    expect(canDrawLive({ CI: 'true' })).toBe(false);
    expect(canDrawLive({ CONTINUOUS_INTEGRATION: '1' })).toBe(false);
    expect(canDrawLive({ CI: 'false' })).toBe(true);
    expect(canDrawLive({ CI: '0' })).toBe(true);
  });
});
