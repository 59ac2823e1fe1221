/**
 * Telling the user a run needs them: the terminal bell by default, and a
 * desktop notification through `notify-send` when the config asks for it.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { visibleText } from '../core/visible-text.js';
import { finishOf } from './tui/model/goal-event.js';
import type { SessionEvent } from './tui/session.js';

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
export function notificationFor(name: string, event: SessionEvent): Notification | null {
  const finished = finishOf(event);
  if (finished === null || finished.reason === 'interrupted') return null;
  const detail = finished.message;
  if (finished.exitCode === 0) return { title: `ralph: ${name} complete`, body: detail, urgency: 'normal' };
  return { title: `ralph: ${name} needs you`, body: detail, urgency: 'critical' };
}

export interface NotifierOptions {
  bell: boolean;
  desktop: boolean;
  /** Writes the bell character; the TUI passes its stdout. */
  writeBell: (text: string) => void;
  /** Where to look for notify-send (default: $PATH). */
  searchPath?: string;
  /** Called with the notify-send process, for tests to wait on. */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
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
    if (options.bell) options.writeBell('\x07');
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
