import { join } from 'node:path';
import type { LoopEvent } from '../loop/events.js';
import { createPlainReporter } from '../ui/plain-reporter.js';
import { openLog } from './event-log-file.js';

/**
 * Where a run's events go: always the run log, and on stdout as NDJSON
 * (`--json`), as plain lines, or (`screen: false`) not at all.
 */
export function openRunEmitter(
  runDir: string,
  opts: { json?: boolean; verbose?: boolean; log?: string; screen?: boolean },
): { emit: (event: LoopEvent) => void; close(): Promise<void> } {
  const log = openLog(opts.log ?? join(runDir, 'ralph.log'));
  const toScreen =
    opts.screen === false
      ? () => {}
      : opts.json
        ? (event: LoopEvent) => process.stdout.write(`${JSON.stringify(event)}\n`)
        : createPlainReporter({
            verbose: opts.verbose ?? false,
            write: (line) => process.stdout.write(`${line}\n`),
          });
  return {
    emit: (event) => {
      log.write(event);
      toScreen(event);
    },
    close: () => log.close(),
  };
}
