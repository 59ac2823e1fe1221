/** What every TUI screen must be, whatever the view: drawn whole, within the terminal, nothing cut or overlapped. */
import { expect } from 'vitest';
import type { Screen } from './terminal.js';

/** The footer: the last line drawn (the terminal's last row stays empty). */
export const footerOf = (screen: Screen): string => screen.rows.at(-2) ?? '';

/**
 * - nothing wider than the terminal (the emulator wraps such a line, and
 *   Ink's redraw then leaves pieces of old frames behind);
 * - the frame fits: the last row is empty and the header is on the first,
 *   once (a frame taller than the terminal scrolls it away or repeats it);
 * - every box row is closed on both sides;
 * - the footer shows whole key hints only, `? help` and `q quit` among them.
 */
export function expectCleanScreen(screen: Screen, label: string): void {
  const where = `${label}:\n${screen.text}`;
  expect(screen.wrapped, `wrapped rows on ${where}`).toEqual([]);
  expect(screen.rows.at(-1), `last row not empty on ${where}`).toBe('');
  expect(screen.rows[0] ?? '', `header on ${where}`).toMatch(/^ralph /);
  expect(
    screen.rows.filter((r) => r.startsWith('ralph ')),
    `header drawn twice on ${where}`,
  ).toHaveLength(1);
  for (const row of screen.rows) {
    const opened = [...row].filter((c) => c === '╭' || c === '╰').length;
    const closed = [...row].filter((c) => c === '╮' || c === '╯').length;
    expect(closed, `box corner unmatched in "${row}" on ${where}`).toBe(opened);
    const bars = [...row].filter((c) => c === '│').length;
    expect(bars % 2, `box side missing in "${row}" on ${where}`).toBe(0);
  }
  const footer = footerOf(screen);
  expect(footer, `a key hint cut short on ${where}`).not.toContain('…');
  const hints = footer.split(' · ');
  expect(hints, `help hint on ${where}`).toContain('? help');
  expect(hints, `quit hint on ${where}`).toContain('q quit');
}
