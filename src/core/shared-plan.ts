import { readyStories } from './ready.js';
import { isPassed, type Prd } from './types.js';

/** What a story's branch on the shared remote says about it. */
export interface SharedStory {
  storyId: string;
  /** Its tip is a verdict: verified work waiting to be integrated. */
  verified: boolean;
  /** Its tip is a setback that parked it: out of retries. */
  parked: boolean;
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
  const ready = readyStories(prd.stories, { busy: new Set(verified), parked: new Set(parked), cap });
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
 * earlier in this order); among those, in the order they were verified.
 * Stories whose dependencies are neither are left for a later round.
 */
export function integrationOrder<T extends { storyId: string; verifiedAt: string }>(
  prd: Prd,
  verified: readonly T[],
): T[] {
  const done = new Set(prd.stories.filter(isPassed).map((s) => s.id));
  const deps = new Map(prd.stories.map((s) => [s.id, s.dependsOn]));
  const left = [...verified]
    .filter((v) => deps.has(v.storyId) && !done.has(v.storyId))
    .sort((a, b) => a.verifiedAt.localeCompare(b.verifiedAt));
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
