import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LoopEvent } from '../loop/events.js';
import { createPlainReporter } from '../ui/plain-reporter.js';

/** The human-readable, timestamped run log (`-l`, default .ralph/runs/<name>/ralph.log). */
export function openLog(path: string): { write(event: LoopEvent): void; close(): Promise<void> } {
  mkdirSync(dirname(path), { recursive: true });
  const stream = createWriteStream(path, { flags: 'a' });
  const write = createPlainReporter({ verbose: true, write: (line) => stream.write(`${line}\n`) });
  return { write, close: () => new Promise<void>((resolve) => stream.end(resolve)) };
}
