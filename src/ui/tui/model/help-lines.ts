/** The help screen: every key with what it does, wrapped to the width and cut into pages that fit. */
import { wrap } from './format.js';

export const HELP_KEYS: readonly (readonly [string, string])[] = [
  ['s', 'start or resume the selected PRD'],
  ['p', 'pause: finish this iteration, then stop; s resumes'],
  ['x', 'stop now: kill the agent, roll the attempt back'],
  ['+ / -', 'five iterations more / fewer (never fewer than one more)'],
  ['j k ↑ ↓', 'choose a story; scroll the log and diff'],
  ['PgUp PgDn g G', 'scroll by page, to the top, to the end (G follows)'],
  ['t', 'log: the agent stream'],
  ['d', 'diff of the story (or of the work in progress)'],
  ['a', 'answer the question of a story marked ? (it waits for you)'],
  ['1–9', 'switch PRD'],
  ['l', 'all PRDs: open, start, pause, stop'],
  ['n / e', 'write a new PRD / edit this one, with the agent'],
  [',', 'settings'],
  ['m / c', 'on completion: merge the branch / remove the worktree'],
  ['Esc', 'back to the dashboard'],
  ['q', 'quit (asks first while loops run)'],
  ['Ctrl-C', 'quit: running loops finish their iteration first; twice: stop them now'],
];

export interface HelpLine {
  key: string;
  text: string;
}

/** One line per key, more where a description wraps; the key column narrows on small terminals. */
export function helpLines(columns: number): HelpLine[] {
  const keyWidth = columns >= 60 ? 15 : 9;
  const textWidth = Math.max(10, columns - keyWidth);
  const blank = ' '.repeat(keyWidth);
  return HELP_KEYS.flatMap(([key, what]) => {
    const texts = wrap(what, textWidth);
    // A key wider than its column gets a line of its own.
    if ([...key].length >= keyWidth)
      return [{ key, text: '' }, ...texts.map((text) => ({ key: blank, text }))];
    return texts.map((text, i) => ({ key: i === 0 ? key.padEnd(keyWidth) : blank, text }));
  });
}

/** Lines per help page: the body less its title line. */
export const helpPageSize = (bodyHeight: number): number => Math.max(1, bodyHeight - 1);

export const helpPageCount = (columns: number, bodyHeight: number): number =>
  Math.max(1, Math.ceil(helpLines(columns).length / helpPageSize(bodyHeight)));
