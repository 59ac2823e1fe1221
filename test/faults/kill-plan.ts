/**
 * When the fault campaign kills ralph: at a named point inside ralph
 * (`RALPH_FAULT_AT`, src/state/fault-point.ts: moments no outside timing can
 * hit), a given time after the n-th line of a type in events.jsonl, or at a
 * random moment of the run.
 */

export type KillPlan =
  | { kind: 'point'; point: string; occurrence: number }
  | { kind: 'event'; type: string; nth: number; delayMs: number }
  | { kind: 'random'; afterMs: number };

/** A seeded generator (mulberry32), so a campaign can be replayed from its printed seed. */
export function randomSource(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (random: () => number, low: number, high: number): number =>
  low + Math.floor(random() * (high - low + 1));

type PlanMaker = (random: () => number, runMs: number) => KillPlan;

const point =
  (name: string, most: number): PlanMaker =>
  (random) => ({ kind: 'point', point: name, occurrence: between(random, 1, most) });

const afterEvent =
  (type: string, most: number, maxDelayMs: number): PlanMaker =>
  (random) => ({
    kind: 'event',
    type,
    nth: between(random, 1, most),
    delayMs: between(random, 0, maxDelayMs),
  });

/**
 * The moments the campaign chooses, in the order a short campaign meets them
 * (the first ones are what CI runs): the agent just spawned, inside an atomic
 * write of the task file, during a gate, anywhere; then the rest.
 */
export const CHOSEN: readonly { name: string; make: PlanMaker }[] = [
  { name: 'agent-spawned', make: point('agent-spawned', 4) },
  { name: 'atomic-write:prd.json', make: point('atomic-write:prd.json', 3) },
  // The gate sleeps 0.4 s: a kill up to 0.3 s after it starts lands inside it.
  { name: 'check-started', make: afterEvent('check-started', 3, 300) },
  { name: 'random', make: (random, runMs) => ({ kind: 'random', afterMs: Math.floor(random() * runMs) }) },
  { name: 'pass-recording', make: point('pass-recording', 3) },
  { name: 'atomic-write:progress.md', make: point('atomic-write:progress.md', 3) },
  { name: 'atomic-write:state.json', make: point('atomic-write:state.json', 14) },
  { name: 'pass-committed', make: point('pass-committed', 3) },
  { name: 'agent-exited', make: point('agent-exited', 4) },
  { name: 'agent-event', make: afterEvent('agent-event', 30, 0) },
  { name: 'iteration-started', make: afterEvent('iteration-started', 4, 20) },
  { name: 'rolled-back', make: afterEvent('rolled-back', 1, 30) },
  { name: 'story-passed', make: afterEvent('story-passed', 2, 30) },
];

/**
 * The n-th cycle's first kill: every chosen moment once, in order, then
 * picked at random (a third of them at a random time). A second kill, during
 * the resumed run, follows in some cycles.
 */
export function plansFor(cycle: number, random: () => number, runMs: number): KillPlan[] {
  const chosen = (i: number): KillPlan => {
    const entry = CHOSEN[i];
    if (entry === undefined) throw new Error(`no chosen moment ${i}`);
    return entry.make(random, runMs);
  };
  const pick = (): KillPlan =>
    random() < 1 / 3
      ? { kind: 'random', afterMs: Math.floor(random() * runMs) }
      : chosen(Math.floor(random() * CHOSEN.length));
  const first = cycle < CHOSEN.length ? chosen(cycle) : pick();
  return random() < 0.35 ? [first, pick()] : [first];
}

export function describePlan(plan: KillPlan): string {
  switch (plan.kind) {
    case 'point':
      return `at ${plan.point} #${plan.occurrence}`;
    case 'event':
      return `${plan.delayMs} ms after ${plan.type} #${plan.nth}`;
    case 'random':
      return `${plan.afterMs} ms into the run`;
  }
}
