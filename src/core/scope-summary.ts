import type { SelectionOptions } from './select.js';
import { isPassed, type Story } from './types.js';

/**
 * What a run that found nothing left in its scope says. With `--story` or
 * `--resume-from` the scope is not the whole PRD, so "all stories passed"
 * would be false: it names the story asked for, whether this run passed it or
 * it had passed before, and how many stories outside the scope are still open.
 */
export function allDoneMessage(
  stories: readonly Story[],
  scope: Pick<SelectionOptions, 'onlyStoryId' | 'resumeFromId'>,
  passedThisRun: ReadonlySet<string>,
): string {
  const open = (list: readonly Story[]) => list.filter((s) => !isPassed(s)).length;
  if (scope.onlyStoryId !== undefined) {
    const id = scope.onlyStoryId;
    const what = passedThisRun.has(id) ? `${id} passed` : `${id} had already passed; nothing to do`;
    return `${what}${outside(open(stories.filter((s) => s.id !== id)), '--story')}`;
  }
  const from = stories.find((s) => s.id === scope.resumeFromId);
  if (from) {
    return `every story from ${from.id} on passed${outside(open(stories.filter((s) => s.order < from.order)), '--resume-from')}`;
  }
  return 'all stories passed';
}

function outside(count: number, flag: string): string {
  if (count === 0) return '';
  return `; ${count} other stor${count === 1 ? 'y is' : 'ies are'} still to do (left out by ${flag})`;
}
