/**
 * The whole TUI as one value: every PRD's run, the open view and its
 * scroll positions. `reduce` applies what happened outside (session events,
 * answers to requests); `handleKey` (keys.ts) applies what the user pressed.
 */
import type {
  AgentProblem,
  HandOffRequest,
  HandOffResult,
  PrdSummary,
  SessionEvent,
  TuiSession,
  TuiSettings,
} from '../session.js';
import { finishOf } from './goal-event.js';
import {
  initialRunView,
  isActive,
  type RunView,
  reduceRun,
  reloadedRun,
  withLimit,
  withStep,
} from './run-view.js';
import type { StepName, StepView } from './steps.js';

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
  /** With no story: the attempt in flight whose work it shows (`US-002 attempt 1`), if any. */
  attempt: string | null;
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

/** Asks for the name of a new PRD before the terminal goes to the agent. */
export type PromptView = { kind: 'prompt'; text: string };

/** `a` on a waiting story: the answer to its question, typed here and recorded as `ralph answer` does. */
export type AnswerView = {
  kind: 'answer';
  name: string;
  storyId: string;
  questionId: string;
  question: string;
  text: string;
};

/** A message too long for the footer (why a hand-off was refused, what it did); any key closes it. */
export type NoticeView = { kind: 'notice'; title: string; text: string; tone: 'good' | 'bad' };

export type BaseView =
  | { kind: 'dashboard' }
  | { kind: 'log' }
  | DiffView
  | { kind: 'picker'; index: number }
  | SettingsView
  | { kind: 'completion' }
  | PromptView
  | AnswerView
  | NoticeView;

export type View = BaseView | { kind: 'help'; back: BaseView; page: number };

/** A yes/no question in the footer before a step that cannot be undone. */
export type Question = { kind: 'clean'; name: string };

export interface TuiState {
  prds: readonly PrdView[];
  selected: number;
  view: View;
  settings: TuiSettings;
  /** A one-line message under the view (an action's result, a refusal). */
  flash: string | null;
  /** `confirm`: asked whether to stop running loops; `stopping`: waiting for them to end. */
  quit: 'none' | 'confirm' | 'stopping';
  question: Question | null;
  /** A hand-off to the agent (`n`, `e`) is under way: keys wait. */
  handingOff: boolean;
  /** PRDs started in this TUI, for the summary printed on exit. */
  started: readonly string[];
  interrupts: number;
  /** Set when the TUI should close, with this exit code. */
  exit: number | null;
  /** The exit code of the latest run that finished; the TUI's own exit code. */
  lastExitCode: number | null;
  /** The agent cannot run here (found when the TUI opened); cleared once a run starts. */
  agentProblem: AgentProblem | null;
}

export type Action =
  | { type: 'session-event'; name: string; event: SessionEvent; nowMs: number }
  | { type: 'prd-reloaded'; summary: PrdSummary }
  | { type: 'start-failed'; name: string; message: string }
  | { type: 'agent-checked'; problem: AgentProblem | null }
  | { type: 'max-iterations-set'; name: string; value: number }
  | { type: 'diff-loaded'; storyId: string | null; text: string; ok: boolean }
  | { type: 'settings-saved'; settings: TuiSettings; issues: readonly string[] }
  | { type: 'flash'; message: string }
  | { type: 'step'; name: string; step: StepName; view: StepView }
  | { type: 'hand-off-done'; request: HandOffRequest; result: HandOffResult }
  /** The agent was checked again (`r`): fixed, or still not usable. */
  | { type: 'agent-rechecked'; name: string; ok: boolean; message: string };

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
    question: null,
    handingOff: false,
    started: [],
    interrupts: 0,
    exit: null,
    lastExitCode: null,
    agentProblem: null,
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
      // A run started: whatever the check at the start said, the agent runs.
      if (event.type === 'run-started') next = { ...next, agentProblem: null };
      const finished = finishOf(event);
      if (finished !== null) {
        // An agent that cannot be used stays on the dashboard with its sentence: nothing is complete.
        const paused = finished.reason === 'interrupted' || finished.reason === 'agent-unusable';
        next = { ...next, lastExitCode: finished.exitCode };
        const isSelected = selectedPrd(next)?.summary.name === name;
        const kind = next.view.kind;
        const unusable = next.prds.find((p) => p.summary.name === name)?.run.unusable ?? null;
        if (!isSelected) next = { ...next, flash: `${name}: ${finished.message}` };
        else if (unusable !== null && finished.reason === 'agent-unusable')
          next = { ...next, view: unusableNotice(unusable), flash: null };
        else if (paused) next = { ...next, flash: null };
        else if (next.quit === 'none' && (kind === 'dashboard' || kind === 'log' || kind === 'diff'))
          next = { ...next, view: { kind: 'completion' }, flash: null };
      }
      return settleQuit(next);
    }
    case 'prd-reloaded':
      return updatePrd(state, action.summary.name, (p) => ({
        ...p,
        summary: action.summary,
        run: reloadedRun(p.run, action.summary),
      }));
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
    case 'agent-checked': {
      const problem = action.problem;
      if (problem === null || anyActive(state)) return { ...state, agentProblem: null };
      // Said before anything is pressed, with how to fix it; the header keeps saying it after.
      const view: View =
        state.view.kind === 'dashboard'
          ? {
              kind: 'notice',
              title: 'The agent cannot run here',
              text: agentProblemText(problem),
              tone: 'bad',
            }
          : state.view;
      return { ...state, agentProblem: problem, view };
    }
    case 'max-iterations-set':
      return updatePrd(state, action.name, (p) => ({ ...p, run: withLimit(p.run, action.value) }));
    case 'step':
      return updatePrd(state, action.name, (p) => ({ ...p, run: withStep(p.run, action.step, action.view) }));
    case 'hand-off-done':
      return handOffDone(state, action.request, action.result);
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
    case 'agent-rechecked':
      return {
        ...updatePrd(state, action.name, (p) => ({
          ...p,
          run: action.ok ? { ...p.run, unusable: null, error: null } : p.run,
        })),
        flash: action.message,
      };
  }
}

export const agentProblemText = (problem: AgentProblem): string =>
  [problem.message, ...problem.details, '', 'Any key closes this; then s tries again.'].join('\n');

/** Back from the agent: the PRD it wrote or edited is shown and selected; the outcome is said. */
function handOffDone(state: TuiState, request: HandOffRequest, result: HandOffResult): TuiState {
  const back: TuiState = { ...state, handingOff: false, view: { kind: 'dashboard' }, flash: null };
  const what = request.kind === 'new' ? `New PRD ${request.name}` : `Edit ${request.name}`;
  const notice: View = {
    kind: 'notice',
    title: `${what}: ${result.ok ? 'done' : 'not done'}`,
    text: result.message,
    tone: result.ok ? 'good' : 'bad',
  };
  const prd = result.prd;
  if (prd === undefined) return { ...back, view: notice };
  const at = back.prds.findIndex((p) => p.summary.name === prd.name);
  if (at >= 0) {
    const prds = back.prds.slice();
    const old = prds[at];
    if (old !== undefined) prds[at] = { ...old, summary: prd, run: reloadedRun(old.run, prd) };
    return { ...back, prds, selected: at, view: notice };
  }
  const added: PrdView = { summary: prd, run: initialRunView(prd), pickedStory: null, logTop: null };
  return { ...back, prds: [...back.prds, added], selected: back.prds.length, view: notice };
}

/** The whole sentence of an agent that cannot be used, wrapped: the activity line has room for its start only. */
function unusableNotice(unusable: { agent: string; message: string; fix: string }): View {
  return {
    kind: 'notice',
    title: `${unusable.agent} cannot be used`,
    text: `${unusable.message}.\n\nTo fix it: ${unusable.fix}.\n\nNothing was counted or parked. Once it is fixed, r checks the agent with one tiny request, and s is offered again.`,
    tone: 'bad',
  };
}
