/**
 * The footer's key hints for each view, fitted to the terminal's width: a
 * hint is shown whole or not at all, the most useful first, and `? help`
 * and `q quit` are always there (help lists every key).
 */
import { focusedIndex, storyRows } from './stories.js';
import { selectedPrd, type TuiState } from './tui-state.js';

const ALWAYS = ['? help', 'q quit'] as const;
const SEPARATOR = ' · ';

/** Each view's hints, most useful first; those that do not fit are left out from the end. */
const VIEW_HINTS: Readonly<Record<string, readonly string[]>> = {
  dashboard: [
    's start',
    'p pause',
    'x stop',
    '+/- limit',
    't log',
    'd diff',
    'l PRDs',
    'j/k story',
    'n new',
    'e edit',
    ', settings',
  ],
  log: ['j/k scroll', 'g/G top/follow', 'PgUp/PgDn page', 't back'],
  diff: ['j/k scroll', 'g/G top/end', 'PgUp/PgDn page', 'd back'],
  picker: ['↑/↓ choose', 'Enter open', 's start', 'p pause', 'x stop', 'Esc back'],
  settings: ['↑/↓ choose', 'Enter change', '←/→ agent', 'Esc back'],
  completion: ['m merge', 'c clean', 's run again', 't log', 'd diff', 'l PRDs', 'Esc back'],
  help: ['Esc close'],
  notice: ['any key: back'],
};

/** Text entry: every printable key is typed, so only the keys that leave it are listed. */
const EDITING_HINTS = ['Enter save', 'Esc cancel'] as const;
const PROMPT_HINTS = ['Enter write it with the agent', 'Esc cancel'] as const;
const ANSWER_HINTS = ['Enter send the answer', 'Esc cancel'] as const;

export function fitHints(hints: readonly string[], always: readonly string[], width: number): string {
  const shown: string[] = [];
  const length = (items: readonly string[]) =>
    items.reduce((sum, item, i) => sum + [...item].length + (i > 0 ? SEPARATOR.length : 0), 0);
  for (const hint of hints) {
    if (length([...shown, hint, ...always]) <= width) shown.push(hint);
  }
  return [...shown, ...always].join(SEPARATOR);
}

export function footerHints(state: TuiState, width: number, helpPages = 1): string {
  const view = state.view;
  if (view.kind === 'settings' && view.editing !== null) return fitHints(EDITING_HINTS, [], width);
  if (view.kind === 'prompt') return fitHints(PROMPT_HINTS, [], width);
  if (view.kind === 'answer') return fitHints(ANSWER_HINTS, [], width);
  const base = [
    ...(view.kind === 'dashboard' && focusWaits(state) ? ['a answer'] : []),
    ...(VIEW_HINTS[view.kind] ?? []),
  ];
  // An agent that cannot be used is not offered `s` until a check (`r`) shows it fixed.
  const unusable = state.prds[state.selected]?.run.unusable != null;
  const hints = unusable
    ? ['r check agent', ...base.filter((h) => h !== 's start' && h !== 's run again')]
    : base;
  const more = view.kind === 'help' && helpPages > 1 ? ['space more'] : [];
  return fitHints([...more, ...hints], ALWAYS, width);
}

/** The focused story waits for an answer: `a` is the key that matters most. */
function focusWaits(state: TuiState): boolean {
  const prd = selectedPrd(state);
  if (prd === undefined) return false;
  const rows = storyRows(prd.summary.stories, prd.run);
  const row = rows[focusedIndex(rows, prd.pickedStory, prd.run.current?.storyId ?? null)];
  return row?.state === 'waiting' && row.question?.answer === undefined;
}
