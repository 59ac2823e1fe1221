import type { StoryStatus } from '../core/types.js';

/** The story marks users know from Chief: ✓ done, ● in progress, ○ todo, ✗ parked. */
export function statusMark(status: StoryStatus, parked = false): string {
  if (parked && status !== 'done') return '✗';
  if (status === 'done') return '✓';
  if (status === 'in-progress') return '●';
  return '○';
}
