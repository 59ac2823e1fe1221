import { type Instance, render } from 'ink';
import { createNotifier, notificationFor } from '../notify.js';
import { App } from './components/app.js';
import { ColorsContext, colorsAllowed } from './components/colors.js';
import { createController } from './controller.js';
import type { TuiSession } from './session.js';

export interface RunTuiOptions {
  /** The terminal, which only src/cli hands out. */
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  /** Use the terminal's alternate screen, restoring the user's scrollback on exit (default: on a TTY). */
  alternateScreen?: boolean;
  /** Aborting it stops every loop now and closes the TUI once they have ended (SIGTERM, SIGHUP). */
  signal?: AbortSignal;
  /** Colour the text (default: unless NO_COLOR is set). */
  colors?: boolean;
}

export interface TuiExit {
  /** That of the last run to finish (0 if none ran). */
  code: number;
  /** The PRDs started in this TUI, in the order they were first started. */
  started: readonly string[];
  /** The PRD selected when the TUI closed. */
  selected?: string;
}

const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
const LEAVE_ALT_SCREEN = '\x1b[?1049l';

/** Shows the TUI until the user quits and every loop it started has stopped. */
export async function runTui(session: TuiSession, options: RunTuiOptions): Promise<TuiExit> {
  const { stdout, stdin } = options;
  const alternate = options.alternateScreen ?? stdout.isTTY === true;
  const colors = options.colors ?? colorsAllowed();
  let instance: Instance | null = null;

  const draw = () => {
    if (alternate) stdout.write(ENTER_ALT_SCREEN);
    // Ctrl-C is a key here: running loops finish their iteration before the TUI closes (see keys.ts).
    instance = render(
      <ColorsContext.Provider value={colors}>
        <App controller={controller} />
      </ColorsContext.Provider>,
      { stdout, stdin, exitOnCtrlC: false },
    );
  };
  const undraw = async () => {
    const drawn = instance;
    instance = null;
    if (drawn === null) return;
    drawn.unmount();
    await drawn.waitUntilExit();
    drawn.cleanup();
    // Stop reading the terminal: whatever runs next in it (the agent of `n`/`e`) gets every key.
    stdin.pause();
    if (alternate) stdout.write(LEAVE_ALT_SCREEN);
  };

  const controller = createController(session, {
    onEvent: (name, event) => {
      const notification = notificationFor(name, event);
      if (notification === null) return;
      // Read at the time: the user may have changed them in settings since the start.
      const { bell, desktop } = session.config.get().notifications;
      createNotifier({ bell, desktop, writeBell: (text) => stdout.write(text) })(notification);
    },
    // `n` / `e`: the agent gets the terminal, then the same state is drawn again.
    terminal: { release: undraw, restore: draw },
  });
  const onAbort = () => controller.quit();
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  draw();
  try {
    const code = await controller.exited;
    const state = controller.getState();
    const selected = state.prds[state.selected]?.summary.name;
    return { code, started: state.started, ...(selected !== undefined ? { selected } : {}) };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    controller.dispose();
    await undraw();
  }
}
