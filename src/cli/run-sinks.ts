import { type EventFollower, type EventSinks, openEventSinks } from '../app/event-sinks.js';
import type { RunEventRecordSink } from '../events/run-event.js';
import type { AlertWishes } from '../notify/desktop.js';
import type { WebhookTarget } from '../notify/webhook-sink.js';
import { print, printError, ringBell, writeJsonText } from './output.js';

/** The output flags of the loop commands. */
export interface OutputFlags {
  json?: boolean;
  verbose?: boolean;
  log?: string;
}

/**
 * A run's events on this terminal: NDJSON (`--json`), plain lines, or
 * (`screen: false`, the TUI) nothing but the listeners; always the run's
 * `events.jsonl` and log.
 */
export function openRunSinks(
  run: string,
  runDir: string,
  flags: OutputFlags & {
    screen?: boolean;
    listeners?: readonly RunEventRecordSink[];
    followers?: readonly EventFollower[];
    webhooks?: readonly WebhookTarget[];
    alerts?: () => AlertWishes;
  },
): EventSinks {
  const screen = flags.screen !== false;
  const bell = process.stdout.isTTY === true && !(screen && flags.json);
  return openEventSinks({
    run,
    runDir,
    ...(flags.log !== undefined ? { log: flags.log } : {}),
    ...(screen && flags.json ? { json: writeJsonText } : {}),
    ...(screen && !flags.json ? { plain: { verbose: flags.verbose ?? false, write: print } } : {}),
    ...(flags.listeners ? { listeners: flags.listeners } : {}),
    ...(flags.followers ? { followers: flags.followers } : {}),
    ...(flags.webhooks?.length ? { webhooks: flags.webhooks } : {}),
    ...(flags.alerts ? { alerts: { wishes: flags.alerts, ...(bell ? { writeBell: ringBell } : {}) } } : {}),
  });
}

/** A warning before the run starts, on stderr with ralph's prefix. */
export const warnOnStderr = (message: string): void => {
  printError(`ralph: ${message}`);
};
