/**
 * The merge queue's rules for a race: verified work that no longer fits the
 * PRD branch because another story landed first. A race is never the
 * story's fault: it costs none of its retries. Its work is first brought
 * onto the new tip (by git, else by its agent); only if that fails is the
 * story requeued, redone from the new tip, a bounded number of times. Until
 * it lands, the next landing is reserved for it, and no new story that
 * likely touches the same files starts.
 */
import { z } from 'zod';
import { type IntegrationProblem, integrationFailure } from './integration-failure.js';
import type { Story } from './types.js';

/** How many times a story may be redone for races before it is parked, with the reason. */
export const MAX_REQUEUES = 5;

/** The story that lost a race, and the files its work touched: the next landing is its. */
export interface Reservation {
  storyId: string;
  files: readonly string[];
}

/**
 * Whether a landing that failed was a race: the PRD branch moved on since
 * the attempt started. On the tip it started from, the same failure is the
 * story's own (its gates failing, say).
 */
export const isRace = (race: { base: string; tip: string }): boolean => race.base !== race.tip;

/** "conflict with US-006 in REGISTRY.md", "the check `npm test` failed once US-006 landed". */
export function raceSummary(problem: IntegrationProblem, landedMeanwhile: readonly string[]): string {
  const who = landedMeanwhile.length > 0 ? landedMeanwhile.join(', ') : 'what landed meanwhile';
  if (problem.kind === 'conflict') return `conflict with ${who} in ${problem.files.join(', ')}`;
  return `the check \`${problem.command}\` failed once ${who} landed`;
}

export type AfterRefusal = { kind: 'requeue'; requeues: number } | { kind: 'park'; reason: string };

/**
 * A race the resolution could not settle: the story is redone from the new
 * tip, not counted against its retries, up to `max` times; past that it is
 * parked, saying why.
 */
export function afterRefusal(input: { requeues: number; max: number; why: string }): AfterRefusal {
  const requeues = input.requeues + 1;
  if (requeues <= input.max) return { kind: 'requeue', requeues };
  return {
    kind: 'park',
    reason: `could not land after ${input.max} requeue${input.max === 1 ? '' : 's'}: each time other stories landed first (last: ${input.why})`,
  };
}

/**
 * The next verified story to land: the reserved one when there is a
 * reservation (none while it is not verified yet); otherwise the one most
 * stories wait on (its dependants, and theirs), so that they start as soon
 * as possible; among equals, the first verified.
 */
export function nextToLand<T extends { storyId: string }>(
  queue: readonly T[],
  reserved: Reservation | null,
  stories: readonly Pick<Story, 'id' | 'dependsOn'>[] = [],
): T | undefined {
  if (reserved !== null) return queue.find((q) => q.storyId === reserved.storyId);
  const waiting = (id: string) => dependantsOf(id, stories).size;
  let best: T | undefined;
  for (const item of queue)
    if (best === undefined || waiting(item.storyId) > waiting(best.storyId)) best = item;
  return best;
}

/** The stories that depend on `id`, directly or through others. */
function dependantsOf(id: string, stories: readonly Pick<Story, 'id' | 'dependsOn'>[]): Set<string> {
  const found = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of stories) {
      if (found.has(s.id) || !s.dependsOn.some((d) => d === id || found.has(d))) continue;
      found.add(s.id);
      grew = true;
    }
  }
  return found;
}

const FilesHint = z.array(z.string().min(1));

/** A story's `files` hint in prd.json (a list of paths it likely touches), when it has a valid one. */
export function fileHints(story: Pick<Story, 'otherFields'>): string[] {
  const parsed = FilesHint.safeParse(story.otherFields?.files);
  return parsed.success ? parsed.data : [];
}

/**
 * The stories not to start now: while a story waits to land after a race, a
 * new story whose likely files (its `files` hint) overlap what the waiting
 * story's work touched would only race it again.
 */
export function heldByReservation(stories: readonly Story[], reserved: Reservation | null): Set<string> {
  const held = new Set<string>();
  if (reserved === null) return held;
  const busyFiles = new Set(reserved.files);
  for (const story of stories) {
    if (story.id !== reserved.storyId && fileHints(story).some((f) => busyFiles.has(f))) held.add(story.id);
  }
  return held;
}

/**
 * What the redo of a requeued story is told: why its verified work did not
 * land (what conflicted or failed, who landed meanwhile, why the resolution
 * was refused), and the conflicting diff or the check's output.
 */
export function requeueNote(
  problem: IntegrationProblem,
  landedMeanwhile: readonly string[],
  refusal: string,
): { kind: string; reason: string; detail?: string } {
  const failure = integrationFailure(problem, landedMeanwhile);
  return {
    kind: failure.kind,
    reason: `${failure.reason} Bringing it onto the new tip failed: ${refusal}.`,
    ...(failure.gateOutputTail ? { detail: failure.gateOutputTail } : {}),
  };
}
