import fs from 'node:fs/promises';
import path from 'node:path';
import { isMissing, readTextOrNull } from './fs-util.js';

/** Per log file, the one-time preparation every append in this process waits for. */
const prepared = new Map<string, Promise<void>>();

/** Appends one JSON line. Lines are single writes in append mode, so concurrent appends do not interleave. */
export async function appendEvent(file: string, event: unknown): Promise<void> {
  const line = JSON.stringify(event);
  if (line === undefined) throw new TypeError('appendEvent: the event is not JSON-serialisable');
  const key = path.resolve(file);
  let ready = prepared.get(key);
  if (ready === undefined) {
    ready = prepare(key);
    prepared.set(key, ready);
    ready.catch(() => prepared.delete(key));
  }
  await ready;
  await fs.appendFile(file, `${line}\n`, 'utf8');
}

async function prepare(file: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  // A run killed mid-write leaves a line without its newline; end it so the
  // next event is not glued onto the broken one.
  if (await endsMidLine(file)) await fs.appendFile(file, '\n', 'utf8');
}

async function endsMidLine(file: string): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}

export interface ReadEventsOptions {
  /** Called for each line that is not valid JSON (1-based line number). */
  onInvalidLine?: (lineNumber: number, text: string) => void;
}

/**
 * Every parsed line of a JSONL file, oldest first; [] when it does not exist.
 * A run killed mid-write leaves a truncated line; such lines are skipped
 * (and reported through `onInvalidLine`) rather than failing the read.
 */
export async function readEvents(file: string, options: ReadEventsOptions = {}): Promise<unknown[]> {
  const text = await readTextOrNull(file);
  return text === null ? [] : parseEventLines(text, options);
}

export function parseEventLines(text: string, options: ReadEventsOptions = {}): unknown[] {
  const events: unknown[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      events.push(JSON.parse(line));
    } catch {
      options.onInvalidLine?.(index + 1, line);
    }
  });
  return events;
}

/** How much of the end of `events.jsonl` `lastSession` reads: a session's start is found there, or the log is too long to say. */
const TAIL_BYTES = 256 * 1024;

/**
 * The end of a run's event log as `ralph status` needs it: whether its last
 * session started and never wrote its end, whether it is waiting out an
 * outage or a limit, and the time of its last event.
 * Reads only the log's tail.
 */
export async function lastSession(
  file: string,
): Promise<{ open: boolean; lastAt: string | null; waiting: boolean }> {
  let text: string;
  try {
    const handle = await fs.open(file, 'r');
    try {
      const { size } = await handle.stat();
      const start = Math.max(0, size - TAIL_BYTES);
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      text = buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return { open: false, lastAt: null, waiting: false };
  }
  let lastAt: string | null = null;
  /** A wait (an outage, a limit) after the last iteration's start: the session is waiting it out. */
  let waiting: boolean | null = null;
  for (const line of text.split('\n').reverse()) {
    if (!line.startsWith('{')) continue;
    let record: { type?: unknown; at?: unknown };
    try {
      record = JSON.parse(line) as { type?: unknown; at?: unknown };
    } catch {
      continue;
    }
    if (lastAt === null && typeof record.at === 'string') lastAt = record.at;
    if (
      waiting === null &&
      record.type === 'waiting' &&
      (record as { reason?: unknown }).reason !== 'question'
    )
      waiting = true;
    if (waiting === null && record.type === 'iteration-started') waiting = false;
    if (record.type === 'run-finished') return { open: false, lastAt, waiting: false };
    if (record.type === 'run-started') return { open: true, lastAt, waiting: waiting === true };
  }
  return { open: false, lastAt, waiting: false };
}
