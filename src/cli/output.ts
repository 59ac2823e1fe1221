/**
 * The one way ralph's text leaves for the terminal. Much of what is shown was
 * written by others (task files, issues, agent and gate output), so text for
 * a person goes out through `visibleText`: a story title holding `ESC ]52;…`
 * shows those characters instead of writing the clipboard. JSON goes out
 * exact, its control characters as JSON escapes. Nothing else in `src/cli`
 * writes to stdout or stderr (test/architecture/output-writers.test.ts).
 */
import { inertJson, jsonText, visibleText } from '../core/visible-text.js';

/**
 * A reader that went away (`ralph run --headless | head`) is no reason to
 * stop: a run killed by the write that met the closed pipe died mid-check
 * and left its log unflushed. Once stdout or stderr is closed, what would go
 * there is dropped; the run goes on, and its `ralph.log` and `events.jsonl`
 * keep everything.
 */
const closed = { stdout: false, stderr: false };
for (const name of ['stdout', 'stderr'] as const) {
  process[name].on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed[name] = true;
  });
}

function write(name: 'stdout' | 'stderr', text: string): void {
  if (!closed[name]) process[name].write(text);
}

/** Lines for a person on stdout (no argument: an empty line). */
export function print(text = ''): void {
  write('stdout', `${visibleText(text)}\n`);
}

/** Lines for a person on stderr: errors, warnings, progress beside a data output. */
export function printError(text: string): void {
  write('stderr', `${visibleText(text)}\n`);
}

/** Text for a person on stdout as it is, with no line break added (a whole listing, a log file). */
export function printText(text: string): void {
  write('stdout', visibleText(text));
}

/** A value as JSON (`--json`), pretty-printed unless `indent` is 0. */
export function printJson(value: unknown, indent = 2): void {
  write('stdout', `${jsonText(value, indent === 0 ? undefined : indent)}\n`);
}

/** JSON text already made (an NDJSON event line): written exact, any raw control character escaped. */
export function writeJsonText(json: string): void {
  write('stdout', inertJson(json));
}

/**
 * A file's exact contents for a pipe (a converted task file, a workflow, an
 * agent's raw stream): byte for byte when stdout is a file or a pipe, shown
 * as symbols when it is a terminal, where a person reads it.
 */
export function printData(text: string): void {
  write('stdout', process.stdout.isTTY ? visibleText(text) : text);
}
