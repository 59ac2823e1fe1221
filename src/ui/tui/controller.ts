/**
 * The TUI's state holder: folds session events and key presses into the
 * state (pure, model/), and carries out the requests keys make of the
 * session. React components only read its state and forward keys.
 */
import {
  type Capabilities,
  type Effect,
  handleKey,
  type KeyPress,
  type KeyResult,
  requestQuit,
  type ViewMetrics,
} from './model/keys.js';
import { type Action, initialState, reduce, type TuiState } from './model/tui-state.js';
import type { SessionEvent, TuiSession } from './session.js';

export interface ControllerOptions {
  /** Called with every session event, e.g. to ring the bell when a run ends. */
  onEvent?: (name: string, event: SessionEvent) => void;
  now?: () => number;
  logCapacity?: number;
}

export interface TuiController {
  getState(): TuiState;
  subscribe(listener: () => void): () => void;
  press(press: KeyPress, metrics: ViewMetrics): void;
  /** Stops every loop now and closes once they have ended, as if the user had confirmed `q`. */
  quit(): void;
  /** Resolves with the exit code once the user has quit and every loop has stopped. */
  readonly exited: Promise<number>;
  dispose(): void;
}

/** After these the task file or run state changed on disk: read the PRD again. */
const RELOAD_AFTER = new Set<SessionEvent['type']>([
  'story-passed',
  'story-parked',
  'run-finished',
  'on-complete',
]);

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function createController(session: TuiSession, options: ControllerOptions = {}): TuiController {
  const now = options.now ?? Date.now;
  const can: Capabilities = {
    newPrd: session.newPrd !== undefined,
    editPrd: session.editPrd !== undefined,
    merge: session.merge !== undefined,
    clean: session.clean !== undefined,
  };
  let state = initialState(
    session,
    options.logCapacity === undefined ? {} : { logCapacity: options.logCapacity },
  );
  const listeners = new Set<() => void>();
  let disposed = false;
  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    resolveExit = resolve;
  });

  // An agent can stream hundreds of events a second: re-render once per burst, not once per event.
  let renderQueued = false;
  const render = () => {
    renderQueued = false;
    for (const listener of listeners) listener();
  };
  const publish = (next: TuiState) => {
    if (disposed || next === state) return;
    state = next;
    if (!renderQueued) {
      renderQueued = true;
      setImmediate(render);
    }
    if (state.exit !== null) {
      resolveExit(state.exit);
      dispose();
    }
  };
  const dispatch = (action: Action) => publish(reduce(state, action));
  const flash = (text: string) => dispatch({ type: 'flash', message: text });

  const unsubscribe = session.subscribe((name, event) => {
    if (disposed) return;
    dispatch({ type: 'session-event', name, event, nowMs: now() });
    options.onEvent?.(name, event);
    if (RELOAD_AFTER.has(event.type)) {
      session.reloadPrd(name).then(
        (summary) => dispatch({ type: 'prd-reloaded', summary }),
        (error: unknown) => flash(`could not reload ${name}: ${message(error)}`),
      );
    }
  });

  function run(effect: Effect): void {
    try {
      perform(effect);
    } catch (error) {
      if (effect.type === 'start')
        dispatch({ type: 'start-failed', name: effect.name, message: message(error) });
      else flash(`${effect.type} failed: ${message(error)}`);
    }
  }

  function perform(effect: Effect): void {
    switch (effect.type) {
      case 'start':
        session
          .start(effect.name)
          .catch((error: unknown) =>
            dispatch({ type: 'start-failed', name: effect.name, message: message(error) }),
          );
        break;
      case 'pause':
        session.pause(effect.name);
        break;
      case 'stop':
        session.stopNow(effect.name);
        break;
      case 'adjust': {
        const value = session.adjustMaxIterations(effect.name, effect.delta);
        dispatch({ type: 'max-iterations-set', name: effect.name, value });
        flash(`${effect.name}: up to ${value} iterations`);
        break;
      }
      case 'load-diff':
        session.diff(effect.name, effect.storyId).then(
          (text) => dispatch({ type: 'diff-loaded', storyId: effect.storyId, text, ok: true }),
          (error: unknown) =>
            dispatch({ type: 'diff-loaded', storyId: effect.storyId, text: message(error), ok: false }),
        );
        break;
      case 'save-settings':
        session.config.save(effect.patch).then(
          (issues) => dispatch({ type: 'settings-saved', settings: session.config.get(), issues }),
          (error: unknown) =>
            dispatch({ type: 'settings-saved', settings: session.config.get(), issues: [message(error)] }),
        );
        break;
      case 'merge':
      case 'clean': {
        const act = effect.type === 'merge' ? session.merge : session.clean;
        act?.call(session, effect.name).then(
          (result) => flash(result.message),
          (error: unknown) => flash(`${effect.type} failed: ${message(error)}`),
        );
        break;
      }
      case 'new-prd':
        session.newPrd?.();
        break;
      case 'edit-prd':
        session.editPrd?.(effect.name);
        break;
    }
  }

  function apply(result: KeyResult): void {
    publish(result.state);
    // Synchronously, in the same tick: a hand-off reaches the session before `exited` settles.
    for (const effect of result.effects) run(effect);
  }

  function dispose(): void {
    if (disposed) return;
    disposed = true;
    unsubscribe();
    listeners.clear();
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    press(keyPress, metrics) {
      if (!disposed) apply(handleKey(state, keyPress, metrics, can));
    },
    quit() {
      if (!disposed) apply(requestQuit(state));
    },
    exited,
    dispose,
  };
}
