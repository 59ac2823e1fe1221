import { appendFileSync, createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { ExitCode, RalphError, systemErrorReason } from '../core/errors.js';
import { jsonText } from '../core/visible-text.js';
import type { RunEvent, RunEventRecord, RunEventRecordSink, RunEventSink } from '../events/run-event.js';
import { runFiles } from '../state/layout.js';
import { createPlainReporter } from '../ui/plain-reporter.js';
import { type WebhookTarget, webhookSink } from '../ui/webhook-sink.js';

/** Who watches a run, besides its own files. The writers come from `src/cli`, which alone prints. */
export interface EventSinkOptions {
  /** The run the events belong to: the PRD's or the goal run's name. */
  run: string;
  /** `.ralph/runs/<name>/`: its `events.jsonl` always, and `ralph.log` unless `log` says where. */
  runDir: string;
  /** The human-readable, timestamped log (`-l`); default `ralph.log` in the run folder. */
  log?: string;
  /** `--json`: each event as one NDJSON line. */
  json?: (line: string) => void;
  /** Plain lines (`-v` adds the agent's own text). */
  plain?: { write: (line: string) => void; verbose: boolean };
  /** The TUI, or anything else in this process that follows the run. */
  listeners?: readonly RunEventRecordSink[];
  /** Followers that act on events outside this process (GitHub's write-back); `close` waits for them. */
  followers?: readonly EventFollower[];
  /** Webhooks (`--notify`, `notify:` in the config): a follower that POSTs what a person needs, in the background. */
  webhooks?: readonly WebhookTarget[];
  now?: () => Date;
}

/** A sink whose work on an event goes on after it returns (a call to a remote API), in the events' order. */
export interface EventFollower {
  follow: RunEventRecordSink;
  /** Resolves once the work on every event followed so far is done. */
  settled(): Promise<void>;
}

export interface EventSinks {
  /** What runners emit to: stamped with its time and run, then handed to every sink in order. */
  emit: RunEventSink;
  /** Waits for the followers (the webhooks' last notifications for a bounded time), then flushes the log; the event log is written synchronously. */
  close(): Promise<void>;
}

/**
 * The one place a run's events fan out: `events.jsonl` (complete enough for
 * another process to follow the run from it alone), `ralph.log`, the screen
 * (`--json` or plain lines), in-process listeners such as the TUI, and
 * webhooks. Adding a consumer is one more entry here.
 */
export function openEventSinks(options: EventSinkOptions): EventSinks {
  const now = options.now ?? (() => new Date());
  const sinks: RunEventRecordSink[] = [eventLogSink(runFiles(options.runDir).events)];
  const log = humanLog(options.log ?? runFiles(options.runDir).log);
  sinks.push(log.write);
  if (options.json) sinks.push(jsonSink(options.json));
  if (options.plain) sinks.push(createPlainReporter(options.plain));
  sinks.push(...(options.listeners ?? []));
  const emit = (event: RunEvent) => {
    const record: RunEventRecord = { at: now().toISOString(), run: options.run, ...event };
    for (const sink of sinks) sink(record);
  };
  const followers = [...(options.followers ?? [])];
  // A webhook that fails is reported once, as an event of the run itself.
  if (options.webhooks?.length)
    followers.push(webhookSink(options.run, options.webhooks, emit, {}, runFiles(options.runDir).outbox));
  // Followers record what the event owes the world (the outbox) before its line is in events.jsonl.
  sinks.unshift(...followers.map((f) => f.follow));
  return {
    emit,
    close: async () => {
      for (const follower of followers) await follower.settled();
      await log.close();
    },
  };
}

/**
 * `events.jsonl`: one line per event, appended synchronously so order is kept
 * and a kill loses no line before it. A run whose record cannot be written
 * stops: the failure goes up from the emit that met it, as a sentence. Every
 * emit after it throws the same error, so the cleanup on the way out (which
 * emits too) cannot put a later symptom in its place.
 */
function eventLogSink(file: string): RunEventRecordSink {
  mkdirSync(path.dirname(file), { recursive: true });
  let failed: RalphError | null = null;
  return (record) => {
    if (failed !== null) throw failed;
    try {
      appendFileSync(file, `${jsonText(record)}\n`);
    } catch (error) {
      failed = new RalphError(
        `could not append to the run's event log ${file}: ${systemErrorReason(error) ?? String(error)}; the run stopped there`,
        'event-log-unwritable',
        ExitCode.WorkLeft,
      );
      throw failed;
    }
  };
}

function jsonSink(write: (line: string) => void): RunEventRecordSink {
  return (record) => write(`${jsonText(record)}\n`);
}

/** The human-readable, timestamped run log: every event, verbose. */
function humanLog(file: string): { write: RunEventRecordSink; close(): Promise<void> } {
  mkdirSync(path.dirname(file), { recursive: true });
  const stream = createWriteStream(file, { flags: 'a' });
  const write = createPlainReporter({ verbose: true, write: (line) => stream.write(`${line}\n`) });
  return { write, close: () => new Promise<void>((resolve) => stream.end(resolve)) };
}
