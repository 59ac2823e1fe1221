import { heldByReservation } from './landing-race.js';
import { readyStories } from './ready.js';
import { isPassed, type Prd } from './types.js';

/** What a story's branch on the shared remote says about it. */
export interface SharedStory {
  storyId: string;
  /** Its tip is a verdict: verified work waiting to be integrated. */
  verified: boolean;
  /** Its tip is a setback that parked it: out of retries. */
  parked: boolean;
  /**
   * Its tip is a requeue: its verified work lost a race to land. It is planned again before the
   * others (nothing counted against it), and what its work touched is held for it.
   */
  requeued?: { files: readonly string[] };
}

export interface SharedPlan {
  /** Ready now, in the selection order, capped: one job each. */
  stories: { id: string; title: string }[];
  /** Verified on the remote, waiting for `ralph integrate`. */
  verified: string[];
  parked: string[];
  /** Stories not landed yet. */
  remaining: number;
  /** Every story has landed: time for the pull request. */
  complete: boolean;
}

/**
 * The plan role over a shared remote: `readyStories` on the task file of the
 * PRD branch's tip, with the stories verified on a pushed story branch as
 * busy (they wait for the integrator, not for another worker) and the
 * stories whose branch holds a parking setback as parked. A story whose
 * branch is unfinished, or absent because its job died, is ready again.
 */
export function planShared(prd: Prd, shared: readonly SharedStory[], cap: number): SharedPlan {
  const open = new Set(prd.stories.filter((s) => !isPassed(s)).map((s) => s.id));
  const verified = shared.filter((s) => s.verified && open.has(s.storyId)).map((s) => s.storyId);
  const parked = shared.filter((s) => !s.verified && s.parked && open.has(s.storyId)).map((s) => s.storyId);
  const requeued = shared.filter((s) => !s.verified && !s.parked && s.requeued && open.has(s.storyId));
  // No new story that likely touches what a requeued story's work did starts before it lands.
  const held = requeued.flatMap((r) => [
    ...heldByReservation(prd.stories, { storyId: r.storyId, files: r.requeued?.files ?? [] }),
  ]);
  const ready = readyStories(prd.stories, {
    busy: new Set([...verified, ...held]),
    parked: new Set(parked),
    cap,
    first: new Set(requeued.map((r) => r.storyId)),
  });
  return {
    stories: ready.map((s) => ({ id: s.id, title: s.title })),
    verified,
    parked,
    remaining: open.size,
    complete: open.size === 0,
  };
}

/**
 * The order the integrator lands verified stories in: a story only once
 * every story it depends on is done on the PRD branch (landed before, or
 * earlier in this order); among those, stories redone after losing a race
 * to land first (they land next), then in the order they were verified.
 * Stories whose dependencies are neither are left for a later round.
 */
export function integrationOrder<T extends { storyId: string; verifiedAt: string; requeues?: number }>(
  prd: Prd,
  verified: readonly T[],
): T[] {
  const done = new Set(prd.stories.filter(isPassed).map((s) => s.id));
  const deps = new Map(prd.stories.map((s) => [s.id, s.dependsOn]));
  const requeued = (v: T) => Number((v.requeues ?? 0) > 0);
  const left = [...verified]
    .filter((v) => deps.has(v.storyId) && !done.has(v.storyId))
    .sort((a, b) => requeued(b) - requeued(a) || a.verifiedAt.localeCompare(b.verifiedAt));
  const order: T[] = [];
  for (let progressed = true; progressed; ) {
    progressed = false;
    for (const v of left) {
      if (order.includes(v) || !(deps.get(v.storyId) ?? []).every((d) => done.has(d))) continue;
      order.push(v);
      done.add(v.storyId);
      progressed = true;
      break;
    }
  }
  return order;
}
