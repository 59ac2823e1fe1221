/**
 * The whole TUI as one value: every PRD's run, the open view and its
 * scroll positions. `reduce` applies what happened outside (session events,
 * answers to requests); `handleKey` (keys.ts) applies what the user pressed.
 */
import type { PrdSummary, SessionEvent, TuiSession, TuiSettings } from '../session.js';
import { initialRunView, isActive, type RunView, reduceRun } from './run-view.js';

export interface PrdView {
  summary: PrdSummary;
  run: RunView;
  /** The story the user moved to; null follows the story being worked on. */
  pickedStory: string | null;
  /** The log's first visible line; null follows the tail. */
  logTop: number | null;
}

export type DiffView = {
  kind: 'diff';
  storyId: string | null;
  status: 'loading' | 'ready' | 'error';
  text: string;
  top: number;
};

export type SettingsView = {
  kind: 'settings';
  index: number;
  editing: { text: string } | null;
  saving: boolean;
  message: string | null;
  issues: readonly string[];
};

export type View =
  | { kind: 'dashboard' }
  | { kind: 'log' }
  | DiffView
  | { kind: 'picker'; index: number }
  | { kind: 'help'; back: Exclude<View, { kind: 'help' }> }
  | SettingsView
  | { kind: 'completion' };

export interface TuiState {
  prds: readonly PrdView[];
  selected: number;
  view: View;
  settings: TuiSettings;
  /** A one-line message under the view (an action's result, a refusal). */
  flash: string | null;
  /** `confirm`: asked whether to stop running loops; `stopping`: waiting for them to end. */
  quit: 'none' | 'confirm' | 'stopping';
  interrupts: number;
  /** Set when the TUI should close, with this exit code. */
  exit: number | null;
  /** The exit code of the latest run that finished; the TUI's own exit code. */
  lastExitCode: number | null;
}

export type Action =
  | { type: 'session-event'; name: string; event: SessionEvent; nowMs: number }
  | { type: 'prd-reloaded'; summary: PrdSummary }
  | { type: 'start-failed'; name: string; message: string }
  | { type: 'max-iterations-set'; name: string; value: number }
  | { type: 'diff-loaded'; storyId: string | null; text: string; ok: boolean }
  | { type: 'settings-saved'; settings: TuiSettings; issues: readonly string[] }
  | { type: 'flash'; message: string };

export interface InitOptions {
  logCapacity?: number;
}

export function initialState(session: TuiSession, options: InitOptions = {}): TuiState {
  const prds = session.prds.map((summary) => ({
    summary,
    run: initialRunView(summary, options.logCapacity),
    pickedStory: null,
    logTop: null,
  }));
  const initial =
    session.initial === undefined ? 0 : prds.findIndex((p) => p.summary.name === session.initial);
  return {
    prds,
    selected: Math.max(0, initial),
    view: { kind: 'dashboard' },
    settings: session.config.get(),
    flash: null,
    quit: 'none',
    interrupts: 0,
    exit: null,
    lastExitCode: null,
  };
}

export const selectedPrd = (state: TuiState): PrdView | undefined => state.prds[state.selected];
export const anyActive = (state: TuiState): boolean => state.prds.some((p) => isActive(p.run));

function updatePrd(state: TuiState, name: string, change: (p: PrdView) => PrdView): TuiState {
  const index = state.prds.findIndex((p) => p.summary.name === name);
  const prd = state.prds[index];
  if (prd === undefined) return state;
  const prds = state.prds.slice();
  prds[index] = change(prd);
  return { ...state, prds };
}

/** Once every loop has stopped after a quit, the TUI closes. */
function settleQuit(state: TuiState): TuiState {
  if (state.quit !== 'stopping' || anyActive(state) || state.exit !== null) return state;
  return { ...state, exit: state.lastExitCode ?? 0 };
}

export function reduce(state: TuiState, action: Action): TuiState {
  switch (action.type) {
    case 'session-event': {
      const { event, name } = action;
      let next = updatePrd(state, name, (p) => ({
        ...p,
        run: reduceRun(p.run, p.summary, event, action.nowMs),
      }));
      if (event.type === 'run-finished') {
        next = { ...next, lastExitCode: event.exitCode };
        const isSelected = selectedPrd(next)?.summary.name === name;
        const kind = next.view.kind;
        if (isSelected && next.quit === 'none' && (kind === 'dashboard' || kind === 'log' || kind === 'diff'))
          next = { ...next, view: { kind: 'completion' } };
        else if (!isSelected) next = { ...next, flash: `${name}: ${event.message}` };
      }
      return settleQuit(next);
    }
    case 'prd-reloaded':
      return updatePrd(state, action.summary.name, (p) => ({ ...p, summary: action.summary }));
    case 'start-failed':
      return settleQuit({
        ...updatePrd(state, action.name, (p) => ({
          ...p,
          run: {
            ...p.run,
            phase: p.run.outcome ? 'finished' : 'ready',
            stopping: 'none',
            current: null,
            error: action.message,
          },
        })),
        flash: `${action.name}: ${action.message}`,
      });
    case 'max-iterations-set':
      return updatePrd(state, action.name, (p) => ({ ...p, run: { ...p.run, maxIterations: action.value } }));
    case 'diff-loaded': {
      const view = state.view;
      if (view.kind !== 'diff' || view.storyId !== action.storyId) return state;
      return {
        ...state,
        view: { ...view, status: action.ok ? 'ready' : 'error', text: action.text, top: 0 },
      };
    }
    case 'settings-saved': {
      const view = state.view;
      const settingsView =
        view.kind === 'settings'
          ? {
              ...view,
              saving: false,
              issues: action.issues,
              message: action.issues.length === 0 ? 'saved' : null,
            }
          : view;
      return { ...state, settings: action.settings, view: settingsView };
    }
    case 'flash':
      return { ...state, flash: action.message };
  }
}
