import { open } from 'node:fs/promises';
import { parseRunEventLine } from '../events/run-event.js';
import { statOrNull } from '../state/fs-util.js';
import { describeEvent } from '../ui/plain-reporter.js';
import { toneOf } from '../ui/tui/model/log-cards.js';
import { emptyActivity, foldActivity, type RunActivity } from './run-activity.js';
import type { LogLine } from './view.js';

/** Read at most this much per look, so a run's history of hundreds of MB is taken in over several. */
const CHUNK_BYTES = 1024 * 1024;
const CHUNKS_PER_LOOK = 8;
/**
 * History further than this from the end is read for the run's activity
 * only: the agent's own events there would scroll out of the page's log
 * anyway, so they are not even parsed. A night's log is mostly those.
 */
const TAIL_BYTES = 1024 * 1024;
const AGENT_EVENT = /^\{"at":"[^"]*","run":"(?:[^"\\]|\\.)*","type":"agent-event"/;
/** Longer lines are cut in the page's log (the raw stream keeps them whole). */
const MAX_LINE_CHARS = 4000;

export interface FollowUpdate {
  /** Lines appended since the last look. */
  lines: LogLine[];
  /** The file shrank or was replaced: everything was read again from the start. */
  reset: boolean;
}

/**
 * Follows one run's `events.jsonl` as another process appends to it: reads
 * what was added since the last look, folds it into the run's activity, and
 * keeps the most recent log lines for a page that connects later. A line
 * still being written (no newline yet) waits for the next look.
 */
export class EventLogFollower {
  #offset = 0;
  #partial = Buffer.alloc(0);
  #activity: RunActivity = emptyActivity;
  #activityVersion = 0;
  #lastAt: string | undefined;
  #recent: LogLine[] = [];

  constructor(
    readonly file: string,
    private readonly capacity = 400,
  ) {}

  get activity(): RunActivity {
    return this.#lastAt === undefined ? this.#activity : { ...this.#activity, lastAt: this.#lastAt };
  }

  /** Changes when the activity does; most events (the agent's own) leave it as it was. */
  get activityVersion(): number {
    return this.#activityVersion;
  }

  /** The last `capacity` lines, oldest first. */
  get recent(): readonly LogLine[] {
    return this.#recent;
  }

  async look(): Promise<FollowUpdate> {
    const size = (await statOrNull(this.file))?.size ?? 0;
    let reset = false;
    if (size < this.#offset) {
      this.#offset = 0;
      this.#partial = Buffer.alloc(0);
      this.#activity = emptyActivity;
      this.#activityVersion++;
      this.#recent = [];
      reset = true;
    }
    if (size === this.#offset) return { lines: [], reset };
    const lines: LogLine[] = [];
    const handle = await open(this.file, 'r');
    try {
      for (let chunk = 0; chunk < CHUNKS_PER_LOOK && this.#offset < size; chunk++) {
        const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, size - this.#offset));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.#offset);
        if (bytesRead === 0) break;
        this.#offset += bytesRead;
        lines.push(...this.#take(buffer.subarray(0, bytesRead), size));
      }
    } finally {
      await handle.close();
    }
    return { lines, reset };
  }

  /** The lines `bytes` completes; `size` is the file's, for what counts as near its end. */
  #take(bytes: Buffer, size: number): LogLine[] {
    const data = Buffer.concat([this.#partial, bytes]);
    const lastNewline = data.lastIndexOf(0x0a);
    if (lastNewline < 0) {
      this.#partial = data;
      return [];
    }
    this.#partial = Buffer.from(data.subarray(lastNewline + 1));
    const out: LogLine[] = [];
    // Where in the file the next line starts, to tell the history from the last megabyte.
    let at = this.#offset - data.length;
    let start = 0;
    while (start <= lastNewline) {
      const end = data.indexOf(0x0a, start);
      at += end + 1 - start;
      const text = data.subarray(start, end).toString('utf8');
      start = end + 1;
      if (text.trim() === '' || (size - at > TAIL_BYTES && AGENT_EVENT.test(text))) continue;
      const line = this.#read(text);
      if (line === null) continue;
      out.push(line);
      this.#recent.push(line);
    }
    if (this.#recent.length > this.capacity) this.#recent = this.#recent.slice(-this.capacity);
    return out;
  }

  #read(text: string): LogLine | null {
    const parsed = parseRunEventLine(text);
    if (!parsed.ok) {
      // Written by a newer ralph, or damaged: said once in the log, never guessed at.
      return { at: '', text: `(an event this ralph cannot read: ${parsed.reason})`, tone: 'warn' };
    }
    const record = parsed.event;
    const before = this.#activity;
    this.#lastAt = record.at;
    this.#activity = foldActivity(before, record);
    if (this.#activity !== before) this.#activityVersion++;
    const described = describeEvent(record, true);
    if (described === null) return null;
    const clipped = described.length > MAX_LINE_CHARS ? `${described.slice(0, MAX_LINE_CHARS)}…` : described;
    return { at: record.at, text: clipped, tone: toneOf(record) };
  }
}
