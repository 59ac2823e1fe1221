/**
 * The outbox campaign: a run over GitHub issues (the scripted GitHub, the
 * real Claude Code, webhooks to a local receiver) killed with SIGKILL at the
 * named points between an agent's exit and the end of the write-back (the
 * verdict, the pass record, a landing, the run's outbox written, a
 * delivery made but not yet marked done), sequential and `--parallel 2`,
 * then run again to the end; checked after every cycle (outbox-checks.ts).
 *
 * `npm test` runs a few cycles; `RALPH_FAULT_ONLY=outbox
 * RALPH_FAULT_CYCLES=50 RALPH_FAULT_JOBS=2 npx vitest run test/faults`
 * runs a campaign (RALPH_FAULT_SEED replays one, RALPH_FAULT_REPORT=<file>
 * keeps its figures as JSON). Other values of RALPH_FAULT_ONLY skip it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { processesIn } from '../support/processes.js';
import type { CliResult } from '../support/ralph-cli.js';
import { describePlan, type KillPlan, randomSource } from './kill-plan.js';
import { checkOutbox } from './outbox-checks.js';
import { createOutboxProject, type OutboxProject, RUN_DIR } from './outbox-project.js';

const number = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
};
const ONLY = process.env.RALPH_FAULT_ONLY;
const CYCLES = number('RALPH_FAULT_CYCLES', 5);
const JOBS = number('RALPH_FAULT_JOBS', 1);
const SEED = number('RALPH_FAULT_SEED', Date.now() % 2 ** 31);

/** The named moments between the agent's exit and the end of the write-back, per kind of run. */
const SEQUENTIAL: readonly KillPlan[] = [
  { kind: 'point', point: 'agent-exited', occurrence: 1 },
  { kind: 'point', point: 'pass-recording', occurrence: 1 },
  { kind: 'point', point: 'pass-committed', occurrence: 2 },
  { kind: 'point', point: 'outbox-recorded', occurrence: 1 },
  { kind: 'point', point: 'outbox-delivered', occurrence: 1 },
  { kind: 'point', point: 'atomic-write:outbox.json', occurrence: 2 },
  { kind: 'event', type: 'agent-exited', nth: 2, delayMs: 20 },
  { kind: 'event', type: 'story-passed', nth: 1, delayMs: 0 },
  { kind: 'event', type: 'story-parked', nth: 1, delayMs: 0 },
];
const PARALLEL: readonly KillPlan[] = [
  { kind: 'point', point: 'landing-recorded', occurrence: 1 },
  { kind: 'point', point: 'landing-moved', occurrence: 1 },
  { kind: 'point', point: 'story-verified', occurrence: 1 },
  { kind: 'point', point: 'outbox-recorded', occurrence: 2 },
  { kind: 'point', point: 'outbox-delivered', occurrence: 2 },
  { kind: 'point', point: 'landing-detached', occurrence: 2 },
  { kind: 'point', point: 'agent-exited', occurrence: 2 },
  { kind: 'event', type: 'integration-started', nth: 1, delayMs: 30 },
  { kind: 'event', type: 'story-passed', nth: 1, delayMs: 0 },
];

interface Cycle {
  cycle: number;
  parallel: boolean;
  plans: KillPlan[];
}

function cyclesFor(count: number, random: () => number): Cycle[] {
  return Array.from({ length: count }, (_, i) => {
    const parallel = i % 2 === 1;
    const moments = parallel ? PARALLEL : SEQUENTIAL;
    const ordinal = Math.floor(i / 2);
    const pick = (): KillPlan => {
      const chosen = moments[Math.floor(random() * moments.length)] ?? moments[0];
      if (chosen === undefined) throw new Error('no moments');
      // Later occurrences of the same point reach later stories.
      return chosen.kind === 'point' ? { ...chosen, occurrence: 1 + Math.floor(random() * 3) } : chosen;
    };
    const first = ordinal < moments.length ? (moments[ordinal] as KillPlan) : pick();
    return { cycle: i, parallel, plans: random() < 0.35 ? [first, pick()] : [first] };
  });
}

interface CycleReport {
  cycle: number;
  mode: string;
  kills: { plan: string; landed: boolean }[];
  runs: number;
  violations: string[];
  comments: number;
  webhookDuplicatesDropped: number;
}

async function eventsOf(p: OutboxProject): Promise<{ type: string }[]> {
  const text = await readFile(join(p.project.repo.dir, RUN_DIR, 'events.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { type: string });
}

/** One run, killed as `plan` says (null: left to finish). */
async function run(p: OutboxProject, plan: KillPlan | null): Promise<CliResult> {
  const before = (await eventsOf(p)).length;
  let pid = 0;
  let done = false;
  const env = {
    ...p.env,
    ...(plan?.kind === 'point' ? { RALPH_FAULT_AT: `${plan.point}#${plan.occurrence}` } : {}),
  };
  const running = p.project.run(p.args, { env, onSpawn: (spawned) => (pid = spawned) }).finally(() => {
    done = true;
  });
  if (plan?.kind === 'event') {
    while (!done) {
      const fresh = (await eventsOf(p)).slice(before);
      if (fresh.filter((e) => e.type === plan.type).length >= plan.nth) {
        if (plan.delayMs > 0) await sleep(plan.delayMs);
        if (pid > 0 && !done) process.kill(pid, 'SIGKILL');
        break;
      }
      await sleep(5);
    }
  }
  return running;
}

async function runCycle(c: Cycle): Promise<CycleReport> {
  const p = await createOutboxProject(c.parallel);
  const kills: CycleReport['kills'] = [];
  let runs = 0;
  try {
    // The first run not killed is the last: a later one would start a new session and retry the parked story.
    let last: CliResult | null = null;
    for (const plan of c.plans) {
      const result = await run(p, plan);
      runs++;
      const landed = result.signal === 'SIGKILL';
      kills.push({ plan: describePlan(plan), landed });
      if (!landed) {
        last = result;
        break;
      }
    }
    if (last === null) {
      last = await run(p, null);
      runs++;
    }
    const violations = await checkOutbox(p, last);
    return {
      cycle: c.cycle,
      mode: c.parallel ? 'parallel' : 'sequential',
      kills,
      runs,
      violations,
      comments: p.github.comments.length,
      webhookDuplicatesDropped: p.kept().duplicates,
    };
  } finally {
    for (const left of processesIn(p.project.repo.dir)) process.kill(left.pid, 'SIGKILL');
    await p.close();
  }
}

describe.skipIf(ONLY !== undefined && ONLY !== 'outbox')('outbox campaign', () => {
  it(
    `kills a GitHub run with webhooks in ${CYCLES} cycles between an agent's exit and the end of its write-back, and the world is told exactly once`,
    async () => {
      const started = performance.now();
      const cycles = cyclesFor(CYCLES, randomSource(SEED));
      const reports: CycleReport[] = [];
      let next = 0;
      const worker = async () => {
        for (let job = cycles[next++]; job !== undefined; job = cycles[next++])
          reports.push(await runCycle(job));
      };
      await Promise.all(Array.from({ length: Math.min(JOBS, CYCLES) }, worker));
      reports.sort((a, b) => a.cycle - b.cycle);
      const kills = reports.flatMap((r) => r.kills);
      const violations = reports.flatMap((r) =>
        r.violations.map((v) => `cycle ${r.cycle} (${r.mode}): ${v}`),
      );
      const byPlan: Record<string, number> = {};
      for (const k of kills.filter((k) => k.landed)) byPlan[k.plan] = (byPlan[k.plan] ?? 0) + 1;
      const figures = {
        seed: SEED,
        cycles: reports.length,
        runs: reports.reduce((n, r) => n + r.runs, 0),
        killsPlanned: kills.length,
        killsLanded: kills.filter((k) => k.landed).length,
        byPlan,
        webhookDuplicatesDropped: reports.reduce((n, r) => n + r.webhookDuplicatesDropped, 0),
        violations,
        minutes: Math.round((performance.now() - started) / 600) / 100,
      };
      console.log(
        [
          `outbox campaign: ${figures.cycles} cycles, seed ${SEED}, ${figures.minutes} min, ${figures.runs} ralph runs`,
          `  kills planned ${figures.killsPlanned}, landed (SIGKILL) ${figures.killsLanded}`,
          ...Object.entries(byPlan).map(([plan, n]) => `    ${String(n).padStart(4)}  ${plan}`),
          `  webhook deliveries a receiver dropped as duplicates: ${figures.webhookDuplicatesDropped}`,
          `  cycles with a violation: ${reports.filter((r) => r.violations.length > 0).length}`,
          ...violations.map((v) => `    ${v}`),
        ].join('\n'),
      );
      const reportFile = process.env.RALPH_FAULT_REPORT;
      if (reportFile) await writeFile(reportFile, `${JSON.stringify({ figures, reports }, null, 2)}\n`);
      expect(violations).toEqual([]);
      expect(figures.killsLanded).toBeGreaterThan(0);
    },
    CYCLES * 240_000,
  );
});
