/**
 * What must hold after an outbox cycle's last run, wherever ralph was killed
 * between an agent's exit and the end of its write-back: git holds each
 * passed issue's work once; GitHub was told exactly that (one "passed"
 * comment and `ralph:done` per landed issue, one park comment and
 * `ralph:parked` for the parked one, no label claiming what git lacks); every
 * webhook notification due was received, each under one `delivery` id; and
 * the run owes nothing more.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliResult } from '../support/ralph-cli.js';
import { BRANCH, type OutboxProject, PARKED, PASSING, RUN_DIR } from './outbox-project.js';

/** The notifications a person must hear of: a park and the end of a run that finished. */
const DUE = new Set(['story-parked', 'run-finished']);

export async function checkOutbox(p: OutboxProject, final: CliResult): Promise<string[]> {
  const violations: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) violations.push(what);
  };
  const { repo } = p.project;
  expect(
    final.exitCode === 1,
    `the last run exited ${final.exitCode} (1: a story parked) ${final.stderr.trim().slice(0, 300)}`,
  );

  const subjects = (await repo.git('log', '--format=%s', BRANCH, '--').catch(() => '')).split('\n');
  for (const n of [...PASSING, PARKED]) {
    const passes = subjects.filter((s) => s === `chore(ralph): GH-${n} passed`).length;
    const feats = subjects.filter((s) => s.startsWith(`feat: GH-${n} `)).length;
    const want = n === PARKED ? 0 : 1;
    expect(
      passes === want && feats === want,
      `GH-${n}: ${feats} feat and ${passes} pass commits on ${BRANCH} (want ${want})`,
    );
  }

  for (const n of PASSING) {
    const labels = p.github.labelsOf(n);
    expect(labels.includes('ralph:done'), `GH-${n} landed but is labelled ${labels.join(', ')}`);
    expect(
      !labels.includes('ralph:in-progress') && !labels.includes('ralph:parked'),
      `GH-${n} still labelled ${labels.join(', ')}`,
    );
    const comments = p.github.comments.filter(
      (c) => c.issue === n && c.body.startsWith(`ralph verified GH-${n}`),
    );
    expect(comments.length === 1, `GH-${n} has ${comments.length} "passed" comments`);
  }
  const parkedLabels = p.github.labelsOf(PARKED);
  expect(
    parkedLabels.includes('ralph:parked') && !parkedLabels.includes('ralph:done'),
    `GH-${PARKED} was parked but is labelled ${parkedLabels.join(', ')}`,
  );
  // Each park is told once: a park comment per park the outbox recorded, found by its marker. (A run
  // killed after it ended owes its last deliveries to the next run, a new session that tries GH-2 again.)
  const parks = p.github.comments.filter(
    (c) => c.issue === PARKED && c.body.startsWith(`ralph parked GH-${PARKED}`),
  );
  const outboxFile = JSON.parse(
    await readFile(join(repo.dir, RUN_DIR, 'outbox.json'), 'utf8').catch(() => '{"intents":[]}'),
  ) as { intents: { id: string; done: boolean; owed: { kind: string; effect?: { type: string } } }[] };
  const parkIntents = outboxFile.intents.filter(
    (i) => i.owed.kind === 'github' && i.owed.effect?.type === 'parked',
  );
  expect(parks.length >= 1, `GH-${PARKED} has no park comment`);
  for (const intent of parkIntents) {
    const told = parks.filter((c) => c.body.includes(`ralph:parked GH-${PARKED} ${intent.id} -->`)).length;
    expect(told === 1, `GH-${PARKED}'s park ${intent.id} was told ${told} times`);
  }
  expect(
    parks.length === parkIntents.length,
    `GH-${PARKED} has ${parks.length} park comments for ${parkIntents.length} parks`,
  );
  const stray = p.github.comments.filter((c) => c.issue === PARKED && c.body.startsWith('ralph verified'));
  expect(stray.length === 0, `GH-${PARKED} has a "passed" comment`);

  // Webhooks: what every run's events said a person must hear, heard under one delivery id each.
  const events = (await readFile(join(repo.dir, RUN_DIR, 'events.jsonl'), 'utf8').catch(() => ''))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { type: string; at: string; storyId?: string });
  const kept = p.kept();
  expect(kept.withoutId === 0, `${kept.withoutId} webhook posts carried no delivery id`);
  const keyOf = (kind: string, story: unknown, at: unknown) => `${kind} ${String(story ?? '')} ${String(at)}`;
  const heard = new Map<string, number>();
  for (const d of kept.deliveries) {
    const key = keyOf(String(d.event), d.story, d.at);
    heard.set(key, (heard.get(key) ?? 0) + 1);
  }
  for (const e of events) {
    if (!DUE.has(e.type)) continue;
    const kind = e.type === 'story-parked' ? 'story-parked' : 'run-finished';
    const key = keyOf(kind, e.type === 'story-parked' ? e.storyId : undefined, e.at);
    expect(heard.has(key), `the webhook never heard of ${key}`);
  }
  for (const [key, n] of heard) expect(n === 1, `the webhook heard ${key} under ${n} delivery ids`);

  const owed = outboxFile.intents.filter((i) => !i.done);
  expect(owed.length === 0, `the outbox still owes ${owed.length} effects after the last run`);
  return violations;
}
