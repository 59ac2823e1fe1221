/**
 * Telling the user a run needs them where they sit: the terminal bell, and a
 * desktop notification through `notify-send`. A follower of the run's events
 * like the webhooks, opened by `openEventSinks` for any run, so a headless
 * run (the night shift) notifies as the TUI does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { visibleText } from '../core/visible-text.js';
import type { RunEvent, RunEventRecord } from '../events/run-event.js';

export interface Notification {
  title: string;
  body: string;
  /** A run that ended with work left (or no way on) needs the user; a finished one is good news. */
  urgency: 'normal' | 'critical';
}

/**
 * A finished run, or one that stopped needing help, is worth a notification.
 * A stop the user asked for is not: they are at the keyboard.
 */
export function notificationFor(name: string, event: RunEvent): Notification | null {
  if (event.type !== 'run-finished' || event.reason === 'interrupted') return null;
  const detail = event.message;
  if (event.exitCode === 0) return { title: `ralph: ${name} complete`, body: detail, urgency: 'normal' };
  return { title: `ralph: ${name} needs you`, body: detail, urgency: 'critical' };
}

/** The bell and the desktop notification, each on or off (`notifications:` / `notify:` in the config). */
export interface AlertWishes {
  bell: boolean;
  desktop: boolean;
}

export interface NotifierOptions extends AlertWishes {
  /** Writes the bell character where the user sees it; absent, there is no terminal to ring. */
  writeBell?: (text: string) => void;
  /** Where to look for notify-send (default: $PATH). */
  searchPath?: string;
  /** Called with the notify-send process, for tests to wait on. */
  onSpawn?: (child: ChildProcess) => void;
}

export function findOnPath(binary: string, searchPath = process.env.PATH ?? ''): string | null {
  for (const dir of searchPath.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

export type Notifier = (notification: Notification) => void;

export function createNotifier(options: NotifierOptions): Notifier {
  const notifySend = options.desktop ? findOnPath('notify-send', options.searchPath) : null;
  return (notification) => {
    if (options.bell) options.writeBell?.('\x07');
    if (notifySend === null) return;
    // An argument array, never a shell: titles and bodies carry PRD names and agent text,
    // whose control characters are shown as symbols like everywhere else a person reads.
    const child = spawn(
      notifySend,
      [
        '--app-name=ralph',
        `--urgency=${notification.urgency}`,
        visibleText(notification.title),
        visibleText(notification.body),
      ],
      { stdio: 'ignore' },
    );
    child.on('error', () => {
      // A notification that cannot be shown is not worth stopping for.
    });
    child.unref();
    options.onSpawn?.(child);
  };
}

/** How long the end of a run waits for notify-send to have shown the last notification. */
const DESKTOP_DRAIN_MS = 5_000;

interface DesktopSinkOptions extends Omit<NotifierOptions, keyof AlertWishes> {
  /** Asked at each notification: the TUI's settings screen may change them while a run goes on. */
  wishes: () => AlertWishes;
}

/**
 * The bell and desktop notifications as a follower of a run's events: a
 * run's end rings and notifies; `settled` waits (boundedly) for the
 * notify-send processes started, so a headless run does not exit under them.
 */
export function desktopSink(options: DesktopSinkOptions): {
  follow: (event: RunEventRecord) => void;
  settled(): Promise<void>;
} {
  const running = new Set<Promise<void>>();
  const track = (child: ChildProcess) => {
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    running.add(exited);
    void exited.then(() => running.delete(exited));
    options.onSpawn?.(child);
  };
  return {
    follow: (event) => {
      const notification = notificationFor(event.run, event);
      if (notification === null) return;
      createNotifier({ ...options, ...options.wishes(), onSpawn: track })(notification);
    },
    settled: async () => {
      if (running.size === 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, DESKTOP_DRAIN_MS);
      });
      await Promise.race([Promise.all(running), timeout]);
      clearTimeout(timer);
    },
  };
}
