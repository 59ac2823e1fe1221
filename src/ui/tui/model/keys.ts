/**
 * What each key does, as a pure function: the next state, and the requests
 * (effects) the controller then makes of the session.
 */
import type { HandOffRequest, SettingsPatch } from '../session.js';
import { modalKey, openAnswer } from './modal-keys.js';
import { isActive } from './run-view.js';
import { handleSettingsKey } from './settings-keys.js';
import { focusedIndex, storyRows } from './stories.js';
import { anyActive, type BaseView, type PrdView, selectedPrd, type TuiState } from './tui-state.js';

/** A key press, independent of Ink's Key type. */
export interface KeyPress {
  input: string;
  up?: boolean;
  down?: boolean;
  left?: boolean;
  right?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  enter?: boolean;
  escape?: boolean;
  backspace?: boolean;
  ctrl?: boolean;
}

/** Sizes from the last render, which scrolling depends on. */
export interface ViewMetrics {
  /** Lines the log or diff view shows at once. */
  pageSize: number;
  logLines: number;
  diffLines: number;
  /** Pages of the help screen at this size. */
  helpPages: number;
}

export type Effect =
  | { type: 'start' | 'pause' | 'stop' | 'merge' | 'clean'; name: string }
  | { type: 'adjust'; name: string; delta: number }
  | { type: 'load-diff'; name: string; storyId: string | null }
  | { type: 'save-settings'; patch: SettingsPatch }
  | { type: 'answer'; name: string; storyId: string; questionId: string; text: string }
  | { type: 'hand-off'; request: HandOffRequest }
  | { type: 'recheck-agent'; name: string };

export interface KeyResult {
  state: TuiState;
  effects: Effect[];
}

/** What the session can do beyond the required calls (optional methods). */
export interface Capabilities {
  handOff: boolean;
  merge: boolean;
  clean: boolean;
  /** Answers questions (`a`); off when left out. */
  answer?: boolean;
  /** The session can check an agent again after it could not be used. */
  recheckAgent?: boolean;
}

export const ITERATION_STEP = 5;

export const none = (state: TuiState): KeyResult => ({ state, effects: [] });
export const flash = (state: TuiState, message: string): KeyResult => none({ ...state, flash: message });

export function handleKey(
  before: TuiState,
  press: KeyPress,
  metrics: ViewMetrics,
  can: Capabilities,
): KeyResult {
  if (before.exit !== null || before.handingOff) return none(before);
  const state: TuiState = { ...before, flash: null };
  if (press.ctrl && press.input === 'c') return interrupt(state);
  if (state.quit === 'confirm') return confirmQuit(state, press);
  if (state.quit === 'stopping') {
    return press.input === 'x' ? stopAll(state, 'stop') : flash(state, 'stopping… (x stops now)');
  }
  if (state.question !== null) return answer(state, press);
  const modal = modalKey(state, press, metrics);
  if (modal !== null) return modal;
  const view = state.view;
  switch (view.kind) {
    case 'settings':
      return handleSettingsKey(state, view, press);
    case 'picker': {
      const handled = pickerKey(state, view.index, press);
      if (handled) return handled;
      break;
    }
    case 'log': {
      const top = scroll(selectedPrd(state)?.logTop ?? null, press, metrics.logLines, metrics.pageSize, true);
      if (top !== undefined) return none(withPrd(state, (p) => ({ ...p, logTop: top })));
      if (press.escape) return none({ ...state, view: { kind: 'dashboard' } });
      break;
    }
    case 'diff': {
      const top = scroll(view.top, press, metrics.diffLines, metrics.pageSize, false);
      if (top !== undefined) return none({ ...state, view: { ...view, top: top ?? 0 } });
      if (press.escape) return none({ ...state, view: { kind: 'dashboard' } });
      break;
    }
    case 'completion': {
      const handled = completionKey(state, press, can);
      if (handled) return handled;
      break;
    }
    case 'help':
    case 'notice':
    case 'prompt':
    case 'answer':
      // Handled by modalKey above.
      break;
    case 'dashboard': {
      const handled = dashboardKey(state, press);
      if (handled) return handled;
      break;
    }
  }
  return globalKey(state, press, can);
}

function globalKey(state: TuiState, press: KeyPress, can: Capabilities): KeyResult {
  const prd = selectedPrd(state);
  const key = press.input;
  if (/^[1-9]$/.test(key)) {
    const index = Number(key) - 1;
    if (index >= state.prds.length) return none(state);
    const kind = state.view.kind;
    return none({ ...state, selected: index, view: kind === 'log' ? state.view : { kind: 'dashboard' } });
  }
  switch (key) {
    case '?':
      return none({ ...state, view: { kind: 'help', back: backView(state), page: 0 } });
    case ',':
      return none({
        ...state,
        view: { kind: 'settings', index: 0, editing: null, saving: false, message: null, issues: [] },
      });
    case 'l':
      return none({ ...state, view: { kind: 'picker', index: state.selected } });
    case 'q':
      if (onlyFinishing(state))
        return flash(
          { ...state, quit: 'stopping' },
          'the goal is reached: quitting once the run has finished (x stops now)',
        );
      if (anyActive(state)) return none({ ...state, quit: 'confirm' });
      return none({ ...state, exit: state.lastExitCode ?? 0 });
    case 'n':
      if (!can.handOff) return flash(state, 'new PRD: not available here (run `ralph new`)');
      if (anyActive(state)) return flash(state, 'stop the running loops before writing a new PRD');
      return none({ ...state, view: { kind: 'prompt', text: '' } });
  }
  if (prd === undefined) return none(state);
  const name = prd.summary.name;
  switch (key) {
    case 's':
      return startPrd(state, prd);
    case 'r':
      if (prd.run.unusable === null) return none(state);
      if (!can.recheckAgent) return flash(state, `${prd.run.unusable.fix}`);
      return {
        state: { ...state, flash: `checking ${prd.run.unusable.agent} with one tiny request…` },
        effects: [{ type: 'recheck-agent', name }],
      };
    case 'p':
      return controlPrd(state, prd, 'pause');
    case 'x':
      return controlPrd(state, prd, 'stop');
    case '+':
    case '=':
      return { state, effects: [{ type: 'adjust', name, delta: ITERATION_STEP }] };
    case '-':
    case '_':
      return { state, effects: [{ type: 'adjust', name, delta: -ITERATION_STEP }] };
    case 't':
      return none({ ...state, view: state.view.kind === 'log' ? { kind: 'dashboard' } : { kind: 'log' } });
    case 'd':
      return state.view.kind === 'diff'
        ? none({ ...state, view: { kind: 'dashboard' } })
        : openDiff(state, prd);
    case 'e':
      if (!can.handOff) return flash(state, 'edit PRD: not available here (run `ralph edit`)');
      if (anyActive(state)) return flash(state, 'stop the running loops before editing a PRD');
      return handOff(state, { kind: 'edit', name });
    case 'a':
      return openAnswer(state, prd, can);
  }
  return none(state);
}

/** Every loop still going has done its work and is only finishing: there is nothing to ask about. */
const onlyFinishing = (state: TuiState): boolean =>
  anyActive(state) && state.prds.every((p) => !isActive(p.run) || p.run.winding);

function backView(state: TuiState): BaseView {
  const view = state.view;
  return view.kind === 'help' ? view.back : view;
}

/** The terminal goes to the agent; keys wait until the TUI is back. */
export function handOff(state: TuiState, request: HandOffRequest): KeyResult {
  return {
    state: { ...state, handingOff: true, view: { kind: 'dashboard' } },
    effects: [{ type: 'hand-off', request }],
  };
}

function withPrd(state: TuiState, change: (p: PrdView) => PrdView): TuiState {
  const prd = selectedPrd(state);
  if (prd === undefined) return state;
  const prds = state.prds.slice();
  prds[state.selected] = change(prd);
  return { ...state, prds };
}

function startPrd(state: TuiState, prd: PrdView): KeyResult {
  if (isActive(prd.run)) return flash(state, `${prd.summary.name} is already running`);
  // Starting would only fail the same way: fixed first, then `r` checks it and `s` is back.
  const unusable = prd.run.unusable;
  if (unusable !== null)
    return flash(state, `not started: r checks ${unusable.agent} again once fixed (${unusable.fix})`);
  const prds = state.prds.map((p) =>
    p === prd ? { ...p, run: { ...p.run, phase: 'starting' as const, error: null } } : p,
  );
  const name = prd.summary.name;
  const view: BaseView = state.view.kind === 'completion' ? { kind: 'dashboard' } : backView(state);
  const started = state.started.includes(name) ? state.started : [...state.started, name];
  return { state: { ...state, prds, view, started }, effects: [{ type: 'start', name }] };
}

function controlPrd(state: TuiState, prd: PrdView, how: 'pause' | 'stop'): KeyResult {
  const name = prd.summary.name;
  if (!isActive(prd.run)) return flash(state, `${name} is not running`);
  if (how === 'pause' && prd.run.stopping !== 'none') return none(state);
  // The header says "Pausing after this iteration" / "Stopping" until the loop has ended: no flash to go stale.
  const prds = state.prds.map((p) => (p === prd ? { ...p, run: { ...p.run, stopping: how } } : p));
  return { state: { ...state, prds }, effects: [{ type: how, name }] };
}

function stopAll(state: TuiState, how: 'pause' | 'stop'): KeyResult {
  const active = state.prds.filter((p) => isActive(p.run));
  const prds = state.prds.map((p) => (isActive(p.run) ? { ...p, run: { ...p.run, stopping: how } } : p));
  return {
    state: { ...state, prds, quit: 'stopping' },
    effects: active.map((p) => ({ type: how, name: p.summary.name })),
  };
}

/** Quit from outside (the terminal closing, SIGTERM): stop every loop now, close once they have ended. */
export function requestQuit(state: TuiState): KeyResult {
  if (state.exit !== null) return none(state);
  if (!anyActive(state)) return none({ ...state, exit: state.lastExitCode ?? 0 });
  return stopAll(state, 'stop');
}

function interrupt(state: TuiState): KeyResult {
  if (!anyActive(state)) return none({ ...state, exit: state.lastExitCode ?? 0 });
  const interrupts = state.interrupts + 1;
  const result = stopAll({ ...state, interrupts }, interrupts === 1 ? 'pause' : 'stop');
  const message =
    interrupts === 1
      ? 'quitting after this iteration (Ctrl-C again to stop now)'
      : 'stopping now, then quitting';
  return { ...result, state: { ...result.state, flash: message } };
}

function confirmQuit(state: TuiState, press: KeyPress): KeyResult {
  if (press.input === 'y' || press.input === 'Y') return stopAll(state, 'stop');
  if (press.input === 'n' || press.input === 'N' || press.escape || press.input === 'q')
    return none({ ...state, quit: 'none' });
  return none(state);
}

function openDiff(state: TuiState, prd: PrdView): KeyResult {
  const rows = storyRows(prd.summary.stories, prd.run);
  const row = rows[focusedIndex(rows, prd.pickedStory, prd.run.current?.storyId ?? null)];
  // A finished story shows its commits; anything else shows the work in progress: that of the
  // attempt in flight since it began (committed or not), else what is not committed.
  const storyId = row !== undefined && row.state === 'done' ? row.story.id : null;
  const current = prd.run.current;
  const attempt =
    storyId === null && current !== null
      ? current.maxAttempts > 0
        ? `${current.storyId} attempt ${current.attempt}`
        : `iteration ${prd.run.iteration}`
      : null;
  return {
    state: { ...state, view: { kind: 'diff', storyId, attempt, status: 'loading', text: '', top: 0 } },
    effects: [{ type: 'load-diff', name: prd.summary.name, storyId }],
  };
}

function dashboardKey(state: TuiState, press: KeyPress): KeyResult | null {
  const prd = selectedPrd(state);
  if (prd === undefined) return null;
  const step = press.down || press.input === 'j' ? 1 : press.up || press.input === 'k' ? -1 : 0;
  if (step !== 0) {
    const rows = storyRows(prd.summary.stories, prd.run);
    const at = focusedIndex(rows, prd.pickedStory, prd.run.current?.storyId ?? null);
    const next = rows[Math.max(0, Math.min(rows.length - 1, at + step))];
    return none(withPrd(state, (p) => ({ ...p, pickedStory: next?.story.id ?? null })));
  }
  if (press.escape) return none(withPrd(state, (p) => ({ ...p, pickedStory: null })));
  return null;
}

function completionKey(state: TuiState, press: KeyPress, can: Capabilities): KeyResult | null {
  const prd = selectedPrd(state);
  if (prd === undefined) return null;
  const name = prd.summary.name;
  if (press.escape || press.enter) return none({ ...state, view: { kind: 'dashboard' } });
  const busy = (step: 'merge' | 'clean') => prd.run.steps[step]?.status === 'running';
  if (press.input === 'm') {
    if (!can.merge) return flash(state, 'merge: not available here (run `ralph merge`)');
    if (busy('merge') || busy('clean')) return none(state);
    return {
      state: withStepRunning(state, 'merge', `merging ${prd.summary.branch ?? name}`),
      effects: [{ type: 'merge', name }],
    };
  }
  if (press.input === 'c') {
    if (!can.clean) return flash(state, 'clean: not available here (run `ralph clean`)');
    if (busy('merge') || busy('clean')) return none(state);
    if (prd.summary.worktree === undefined) return flash(state, `${name} has no worktree to remove`);
    return none({ ...state, question: { kind: 'clean', name } });
  }
  return null;
}

function withStepRunning(state: TuiState, step: 'merge' | 'clean', detail: string): TuiState {
  return withPrd(state, (p) => ({
    ...p,
    run: { ...p.run, steps: { ...p.run.steps, [step]: { status: 'running', detail } } },
  }));
}

/** The footer's yes/no question: `c` removes a worktree only once the user said yes. */
function answer(state: TuiState, press: KeyPress): KeyResult {
  const question = state.question;
  if (question === null) return none(state);
  if (press.input === 'y' || press.input === 'Y') {
    const asked = { ...state, question: null };
    return {
      state: withStepRunning(asked, 'clean', 'removing the worktree'),
      effects: [{ type: 'clean', name: question.name }],
    };
  }
  if (press.input === 'n' || press.input === 'N' || press.escape || press.input === 'q')
    return none({ ...state, question: null });
  return none(state);
}

function pickerKey(state: TuiState, index: number, press: KeyPress): KeyResult | null {
  const count = state.prds.length;
  const step = press.down || press.input === 'j' ? 1 : press.up || press.input === 'k' ? -1 : 0;
  if (step !== 0)
    return none({
      ...state,
      view: { kind: 'picker', index: Math.max(0, Math.min(count - 1, index + step)) },
    });
  if (press.escape || press.input === 'l') return none({ ...state, view: { kind: 'dashboard' } });
  if (press.enter) return none({ ...state, selected: index, view: { kind: 'dashboard' } });
  const prd = state.prds[index];
  if (prd === undefined) return null;
  if (press.input === 's') return startPrd(state, prd);
  if (press.input === 'p') return controlPrd(state, prd, 'pause');
  if (press.input === 'x') return controlPrd(state, prd, 'stop');
  return null;
}

/**
 * The new first line after a scroll key, or undefined when the key does not
 * scroll. For the log, null means "follow the tail" (reached by G, or by
 * scrolling down to the end).
 */
function scroll(
  top: number | null,
  press: KeyPress,
  total: number,
  page: number,
  follows: boolean,
): number | null | undefined {
  const maxTop = Math.max(0, total - page);
  const from = top ?? maxTop;
  let to: number;
  if (press.input === 'G') return follows ? null : maxTop;
  if (press.input === 'g') to = 0;
  else if (press.down || press.input === 'j') to = from + 1;
  else if (press.up || press.input === 'k') to = from - 1;
  else if (press.pageDown || press.input === ' ') to = from + page;
  else if (press.pageUp) to = from - page;
  else return undefined;
  to = Math.max(0, Math.min(maxTop, to));
  return follows && to >= maxTop && to >= from ? null : to;
}
