import type { StoryStatus } from '../core/types.js';

/** The story marks users know from Chief: ✓ done, ● in progress, ○ todo, ✗ parked; and ? waiting for an answer. */
export function statusMark(status: StoryStatus, parked = false, waiting = false): string {
  if (waiting && status !== 'done') return '?';
  if (parked && status !== 'done') return '✗';
  if (status === 'done') return '✓';
  if (status === 'in-progress') return '●';
  return '○';
}

/** A span of time as a terminal line shows it: `42s`, `3m 05s`, `2h 10m`. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m}m ${String(s % 60).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

export { firstLine } from '../core/first-line.js';
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
