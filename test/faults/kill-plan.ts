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
 * The moments of a parallel run (three stories at once that all append to
 * one file, so two of them lose the race to land and are resolved by their
 * agent): inside a resolution (its checkout merged, its agent mid-answer or
 * just exited, its verdict written but not landed) and inside a landing
 * (detached, rebased, the pass recorded, the branch moved, a gate running).
 * The first parallel cycle kills during a resolution, then, in the resumed
 * run, during a landing.
 */
export const PARALLEL_CHOSEN: readonly { name: string; make: PlanMaker; second?: PlanMaker }[] = [
  {
    name: 'resolution-started',
    make: afterEvent('resolution-started', 1, 900),
    second: point('landing-recorded', 2),
  },
  { name: 'resolution-prepared', make: point('resolution-prepared', 2) },
  { name: 'landing-rebased', make: point('landing-rebased', 3) },
  // The three workers' agents spawn first; the fourth and fifth are resolutions.
  {
    name: 'agent-spawned (resolution)',
    make: (random) => ({ kind: 'point', point: 'agent-spawned', occurrence: between(random, 4, 5) }),
  },
  { name: 'resolution-verified', make: point('resolution-verified', 2) },
  { name: 'landing-moved', make: point('landing-moved', 3) },
  {
    name: 'agent-exited (resolution)',
    make: (random) => ({ kind: 'point', point: 'agent-exited', occurrence: between(random, 4, 5) }),
  },
  { name: 'landing-detached', make: point('landing-detached', 3) },
  { name: 'integration-started', make: afterEvent('integration-started', 5, 600) },
  { name: 'landing-recorded', make: point('landing-recorded', 3) },
  { name: 'resolution-finished', make: afterEvent('resolution-finished', 2, 60) },
  { name: 'atomic-write:state.json', make: point('atomic-write:state.json', 30) },
  { name: 'random', make: (random, runMs) => ({ kind: 'random', afterMs: Math.floor(random() * runMs) }) },
];

/**
 * The n-th cycle (of its kind) first kill: every chosen moment once, in
 * order, then picked at random (a third of them at a random time). A second
 * kill, during the resumed run, follows in some cycles, and always where
 * the moment names one.
 */
export function plansFor(
  cycle: number,
  random: () => number,
  runMs: number,
  moments: readonly { make: PlanMaker; second?: PlanMaker }[] = CHOSEN,
): KillPlan[] {
  const chosen = (i: number) => {
    const entry = moments[i];
    if (entry === undefined) throw new Error(`no chosen moment ${i}`);
    return entry;
  };
  const pick = (): KillPlan =>
    random() < 1 / 3
      ? { kind: 'random', afterMs: Math.floor(random() * runMs) }
      : chosen(Math.floor(random() * moments.length)).make(random, runMs);
  if (cycle < moments.length) {
    const entry = chosen(cycle);
    const first = entry.make(random, runMs);
    if (entry.second) return [first, entry.second(random, runMs)];
    return random() < 0.35 ? [first, pick()] : [first];
  }
  const first = pick();
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
