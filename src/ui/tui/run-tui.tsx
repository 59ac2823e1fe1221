import { render } from 'ink';
import { createNotifier, notificationFor } from '../notify.js';
import { App } from './components/app.js';
import { createController } from './controller.js';
import type { TuiSession } from './session.js';

export interface RunTuiOptions {
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** Use the terminal's alternate screen, restoring the user's scrollback on exit (default: on a TTY). */
  alternateScreen?: boolean;
  /** Aborting it stops every loop now and closes the TUI once they have ended (SIGTERM, SIGHUP). */
  signal?: AbortSignal;
}

const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
const LEAVE_ALT_SCREEN = '\x1b[?1049l';

/**
 * Shows the TUI until the user quits and every loop it started has stopped.
 * Resolves with the exit code: that of the last run to finish (0 if none
 * ran), or `HAND_OFF_EXIT_CODE` after `n`/`e`.
 */
export async function runTui(session: TuiSession, options: RunTuiOptions = {}): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  const alternate = options.alternateScreen ?? stdout.isTTY === true;
  const controller = createController(session, {
    onEvent: (name, event) => {
      const notification = notificationFor(name, event);
      if (notification === null) return;
      // Read at the time: the user may have changed them in settings since the start.
      const { bell, desktop } = session.config.get().notifications;
      createNotifier({ bell, desktop, writeBell: (text) => stdout.write(text) })(notification);
    },
  });
  const onAbort = () => controller.quit();
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (alternate) stdout.write(ENTER_ALT_SCREEN);
  // Ctrl-C is a key here: it pauses the loops first (see keys.ts) rather than killing the TUI under them.
  const instance = render(<App controller={controller} />, { stdout, stdin, exitOnCtrlC: false });
  try {
    const code = await controller.exited;
    instance.unmount();
    await instance.waitUntilExit();
    return code;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    controller.dispose();
    instance.cleanup();
    if (alternate) stdout.write(LEAVE_ALT_SCREEN);
  }
}
