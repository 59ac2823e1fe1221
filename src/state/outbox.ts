/**
 * The run's outbox (`.ralph/runs/<name>/outbox.json`): every effect outside
 * the repository the run owes — a GitHub comment and labels for a landed,
 * parked or questioning story, a webhook's notification — recorded as an
 * intent before it is attempted, and marked done once delivered. A run
 * killed in between leaves the intent pending, and the next run delivers it
 * (deliveries are idempotent: see app/github-write-back.ts and the webhooks'
 * `delivery` id). Written synchronously and atomically (temp file, rename):
 * an intent is on disk before the line of its event in `events.jsonl`.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { temporaryName } from '../core/temporary-files.js';
import { faultPoint } from './fault-point.js';

const GithubEffectSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('passed'),
    issue: z.number().int().positive(),
    storyId: z.string().min(1),
    commits: z.array(z.object({ sha: z.string(), subject: z.string() })),
    /** The branch the pass landed on (null: the checkout's, asked at delivery). */
    branch: z.string().nullable(),
    attempt: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative(),
  }),
  z.object({
    type: z.literal('parked'),
    issue: z.number().int().positive(),
    storyId: z.string().min(1),
    attempts: z.number().int().nonnegative(),
    reason: z.string(),
  }),
  z.object({
    type: z.literal('question'),
    issue: z.number().int().positive(),
    storyId: z.string().min(1),
    questionId: z.string().min(1),
    question: z.string(),
  }),
]);
export type GithubEffect = z.infer<typeof GithubEffectSchema>;

const EffectSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('github'), effect: GithubEffectSchema }),
  z.object({
    kind: z.literal('webhook'),
    /** The webhook, by a digest of its URL: the URL itself may carry a secret and stays out of run files. */
    target: z.string().min(1),
    notification: z.record(z.string(), z.unknown()),
  }),
]);
export type OwedEffect = z.infer<typeof EffectSchema>;

const IntentSchema = z.object({
  /** Unique and kept across retries: a webhook's `delivery`, part of a GitHub comment's marker. */
  id: z.string().min(1),
  at: z.string(),
  done: z.boolean(),
  owed: EffectSchema,
});
export type Intent = z.infer<typeof IntentSchema>;

const OutboxFileSchema = z.object({ version: z.literal(1), intents: z.array(IntentSchema) });

/** Done intents kept for deciding what a resumed run still owes (GitHub's); webhooks' are dropped once done. */
const KEPT_DONE = 500;

export interface Outbox {
  /** Records `owed` as pending, on disk before it returns. */
  record(id: string, owed: OwedEffect, at: Date): Intent;
  /** Marks an intent delivered. */
  done(id: string): void;
  /** What is still owed, in the order it was recorded. */
  pending(): Intent[];
  /** Every intent kept, done or not, in order. */
  all(): readonly Intent[];
}

const open = new Map<string, Outbox>();

/**
 * The outbox of the run whose file is `file`: one instance per file in a
 * process, shared by every follower that owes something (GitHub's write-back
 * and the webhooks), so their writes never overtake each other. A file that
 * cannot be read as an outbox is set aside (`outbox.json.unreadable`), never
 * silently replaced.
 */
export function openOutbox(file: string): Outbox {
  const known = open.get(file);
  if (known) return known;
  let intents = load(file);
  const save = () => writeFileAtomicSync(file, `${JSON.stringify({ version: 1, intents }, null, 2)}\n`);
  const outbox: Outbox = {
    record(id, owed, at) {
      const intent: Intent = { id, at: at.toISOString(), done: false, owed };
      intents = [...intents, intent];
      save();
      faultPoint('outbox-recorded');
      return intent;
    },
    done(id) {
      faultPoint('outbox-delivered');
      intents = compact(intents.map((i) => (i.id === id ? { ...i, done: true } : i)));
      save();
    },
    pending: () => intents.filter((i) => !i.done),
    all: () => intents,
  };
  open.set(file, outbox);
  return outbox;
}

function compact(intents: Intent[]): Intent[] {
  const kept = intents.filter((i) => !(i.done && i.owed.kind === 'webhook'));
  const done = kept.filter((i) => i.done);
  if (done.length <= KEPT_DONE) return kept;
  const drop = new Set(done.slice(0, done.length - KEPT_DONE).map((i) => i.id));
  return kept.filter((i) => !drop.has(i.id));
}

function load(file: string): Intent[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  try {
    return OutboxFileSchema.parse(JSON.parse(text)).intents;
  } catch {
    renameSync(file, `${file}.unreadable`);
    return [];
  }
}

let written = 0;

function writeFileAtomicSync(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), temporaryName(path.basename(file), process.pid, ++written));
  const fd = openSync(temp, 'wx');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  faultPoint(`atomic-write:${path.basename(file)}`);
  renameSync(temp, file);
}
