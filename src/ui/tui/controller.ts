/**
 * The TUI's state holder: folds session events and key presses into the
 * state (pure, model/), and carries out the requests keys make of the
 * session. React components only read its state and forward keys.
 */

import { finishOf } from './model/goal-event.js';
import {
  type Capabilities,
  type Effect,
  handleKey,
  type KeyPress,
  type KeyResult,
  requestQuit,
  type ViewMetrics,
} from './model/keys.js';
import { lastIteration, withLimit } from './model/run-view.js';
import { type Action, initialState, reduce, type TuiState } from './model/tui-state.js';
import type { SessionEvent, TerminalLease, TuiSession } from './session.js';

export interface ControllerOptions {
  /** Called with every session event, e.g. to ring the bell when a run ends. */
  onEvent?: (name: string, event: SessionEvent) => void;
  now?: () => number;
  logCapacity?: number;
  /** Hands the terminal over for `n` / `e` and takes it back; without it the TUI cannot hand off. */
  terminal?: { release(): Promise<void>; restore(): void };
  /** Shortest time between two frames drawn for session events (keys draw at once). Default 1000/30 ms. */
  frameMs?: number;
  /** How often a PRD whose run another process holds is read again. Default 2 s. */
  elsewhereMs?: number;
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
  'branch-pushed',
  'pr-created',
  // A goal run's steps change with each result and failed iteration; its progress file says how.
  'goal-result',
  'attempt-failed',
]);

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function createController(session: TuiSession, options: ControllerOptions = {}): TuiController {
  const now = options.now ?? Date.now;
  const frameMs = options.frameMs ?? 1000 / 30;
  const can: Capabilities = {
    handOff: session.handOff !== undefined && options.terminal !== undefined,
    merge: session.merge !== undefined,
    clean: session.clean !== undefined,
    answer: session.answer !== undefined,
    recheckAgent: session.recheckAgent !== undefined,
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

  // An agent can stream thousands of events a second: draw at most one frame per `frameMs` for
  // them, so rendering costs the same however fast they come. A key draws at once. A frame that
  // took long (a loaded machine, a big terminal) spaces the next ones out, so drawing never takes
  // more than about a third of the time from the loop and the agents.
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastFrameAt = Number.NEGATIVE_INFINITY;
  let lastFrameCost = 0;
  const render = () => {
    timer = null;
    const start = performance.now();
    lastFrameAt = start;
    for (const listener of listeners) listener();
    // React draws in a microtask the listeners queued: this one runs after it.
    queueMicrotask(() => {
      lastFrameCost = performance.now() - start;
    });
  };
  const scheduleRender = (urgent: boolean) => {
    const interval = Math.max(frameMs, 3 * lastFrameCost);
    const wait = urgent ? 0 : Math.max(0, lastFrameAt + interval - performance.now());
    if (timer !== null) {
      if (!urgent) return;
      clearTimeout(timer);
    }
    timer = setTimeout(render, wait);
  };
  const publish = (next: TuiState, urgent = true) => {
    if (disposed || next === state) return;
    state = next;
    scheduleRender(urgent);
    if (state.exit !== null) {
      resolveExit(state.exit);
      dispose();
    }
  };
  const dispatch = (action: Action, urgent = true) => publish(reduce(state, action), urgent);
  const flash = (text: string) => dispatch({ type: 'flash', message: text });
  const reload = (name: string) =>
    session.reloadPrd(name).then(
      (summary) => dispatch({ type: 'prd-reloaded', summary }),
      (error: unknown) => flash(`could not reload ${name}: ${message(error)}`),
    );

  // Asked when the TUI opens, and again after the settings (the agent among them) were saved.
  const checkAgent = () =>
    session.checkAgent?.().then(
      (problem) => dispatch({ type: 'agent-checked', problem }),
      (error: unknown) =>
        dispatch({ type: 'agent-checked', problem: { message: message(error), details: [] } }),
    );
  void checkAgent();

  // A run another process holds sends this TUI no events: its tab is read again now and then, so
  // its stories, counts and badge follow that run and end as it ends (not frozen as they were at open).
  const following = new Set<string>();
  const followElsewhere = setInterval(() => {
    for (const p of state.prds) {
      const name = p.summary.name;
      if (p.run.phase !== 'ready' || !p.summary.running || following.has(name)) continue;
      following.add(name);
      void reload(name).finally(() => following.delete(name));
    }
  }, options.elsewhereMs ?? 2000);
  followElsewhere.unref?.();

  const unsubscribe = session.subscribe((name, event) => {
    if (disposed) return;
    dispatch({ type: 'session-event', name, event, nowMs: now() }, finishOf(event) !== null);
    options.onEvent?.(name, event);
    if (RELOAD_AFTER.has(event.type)) void reload(name);
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
        const run = state.prds.find((p) => p.summary.name === effect.name)?.run;
        if (run !== undefined)
          flash(
            `${effect.name}: up to iteration ${lastIteration(withLimit(run, value))} (${value} this session)`,
          );
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
          (issues) => {
            dispatch({ type: 'settings-saved', settings: session.config.get(), issues });
            void checkAgent();
          },
          (error: unknown) =>
            dispatch({ type: 'settings-saved', settings: session.config.get(), issues: [message(error)] }),
        );
        break;
      case 'merge':
      case 'clean': {
        const step = effect.type;
        const act = step === 'merge' ? session.merge : session.clean;
        const done = (ok: boolean, detail: string) =>
          dispatch({
            type: 'step',
            name: effect.name,
            step,
            view: { status: ok ? 'done' : 'failed', detail },
          });
        (act?.call(session, effect.name) ?? Promise.reject(new Error(`${step} is not available`)))
          .then(
            (result) => done(result.ok, result.message),
            (error: unknown) => done(false, message(error)),
          )
          // The worktree or the branch changed: the header shows it.
          .then(() => reload(effect.name));
        break;
      }
      case 'hand-off':
        handOff(effect.request);
        break;
      case 'answer': {
        const { name, storyId } = effect;
        (session.answer?.(name, effect.questionId, effect.text) ?? Promise.reject(new Error('not available')))
          .then(
            (result) =>
              flash(
                result.ok ? `${storyId}: ${result.message}` : `${storyId}: not answered: ${result.message}`,
              ),
            (error: unknown) => flash(`${storyId}: not answered: ${message(error)}`),
          )
          // A live run takes the answer in and says so; without one, the summary shows it.
          .then(() => reload(name));
        break;
      }
      case 'recheck-agent':
        (session.recheckAgent?.(effect.name) ?? Promise.reject(new Error('not available'))).then(
          (result) => dispatch({ type: 'agent-rechecked', name: effect.name, ...result }),
          (error: unknown) =>
            dispatch({ type: 'agent-rechecked', name: effect.name, ok: false, message: message(error) }),
        );
        break;
    }
  }

  function handOff(request: Extract<Effect, { type: 'hand-off' }>['request']): void {
    const terminal = options.terminal;
    if (session.handOff === undefined || terminal === undefined) return;
    let released = false;
    const lease: TerminalLease = {
      async release() {
        await terminal.release();
        released = true;
      },
    };
    session
      .handOff(request, lease)
      .catch((error: unknown) => ({ ok: false, message: message(error) }))
      .then((result) => {
        if (released) terminal.restore();
        dispatch({ type: 'hand-off-done', request, result });
      });
  }

  function apply(result: KeyResult): void {
    publish(result.state);
    for (const effect of result.effects) run(effect);
  }

  function dispose(): void {
    if (disposed) return;
    disposed = true;
    clearInterval(followElsewhere);
    unsubscribe();
    if (timer !== null) clearTimeout(timer);
    timer = null;
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
