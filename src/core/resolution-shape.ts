import type { AttemptFacts, AttemptShape } from './attempt-facts.js';
import type { DroppedLine } from './kept-lines.js';
import type { OutsideFailure } from './outside-failure.js';
import type { Signals } from './signals.js';
import { storyShape } from './story-shape.js';

/**
 * What a resolution run came to: the story's verified work brought onto the
 * PRD branch's new tip by its agent, or not. A refusal is not the story's
 * failure: the story is redone from the new tip instead.
 */
export type ResolutionVerdict =
  | { kind: 'resolved' }
  | { kind: 'refused'; reason: string }
  | { kind: 'rate-limited'; reason: string; resetsAt?: string }
  /** The agent's API or login failed it: the work stands, and waits as any attempt would. */
  | { kind: 'outside'; failure: OutsideFailure }
  | { kind: 'aborted' };

/**
 * A resolution run is judged as a story attempt is (DONE for this story, a
 * new commit on the new tip, the gates passing on it, a clean tree), with
 * its own wording: what went wrong is said to the redo, not counted.
 */
export function resolutionShape(storyId: string): AttemptShape<Signals, ResolutionVerdict> {
  const story = storyShape(storyId);
  return {
    read: story.read,
    wantsGates: story.wantsGates,
    judge: (facts: AttemptFacts<Signals>): ResolutionVerdict => {
      const verdict = story.judge(facts);
      switch (verdict.kind) {
        case 'pass':
          return { kind: 'resolved' };
        case 'rate-limited':
          return verdict.resetsAt
            ? { kind: 'rate-limited', reason: verdict.reason, resetsAt: verdict.resetsAt }
            : { kind: 'rate-limited', reason: verdict.reason };
        case 'outside':
          return { kind: 'outside', failure: verdict.failure };
        case 'aborted':
          return { kind: 'aborted' };
        default:
          return { kind: 'refused', reason: `the resolution did not pass: ${lowerFirst(verdict.reason)}` };
      }
    },
  };
}

/** What the merge queue found in a resolution the agent finished: markers left, landed lines dropped. */
export interface ResolutionFindings {
  markers: readonly { file: string; line: number }[];
  dropped: readonly DroppedLine[];
  /** The stories that landed meanwhile, for the wording. */
  landedMeanwhile: readonly string[];
}

const MAX_SHOWN = 3;

/**
 * A resolution the kernel passed stands only if it left no conflict marker
 * and kept every line the stories that landed meanwhile added (see
 * `droppedLines`): it never silently drops another story's work. Otherwise
 * the story is redone from the new tip, where its agent sees those lines.
 */
export function acceptResolution(verdict: ResolutionVerdict, found: ResolutionFindings): ResolutionVerdict {
  if (verdict.kind !== 'resolved') return verdict;
  if (found.markers.length > 0) {
    const where = found.markers.slice(0, MAX_SHOWN).map((m) => `${m.file}:${m.line}`);
    return {
      kind: 'refused',
      reason: `the resolution left conflict markers (${where.join(', ')}${more(found.markers.length)})`,
    };
  }
  if (found.dropped.length > 0) {
    const who = found.landedMeanwhile.length > 0 ? found.landedMeanwhile.join(', ') : 'the new tip';
    const lines = found.dropped.slice(0, MAX_SHOWN).map((d) => `${d.file}: ${JSON.stringify(d.line.trim())}`);
    return {
      kind: 'refused',
      reason: `the resolution removed lines that ${who} added (${lines.join('; ')}${more(found.dropped.length)})`,
    };
  }
  return verdict;
}

const more = (n: number): string => (n > MAX_SHOWN ? `, and ${n - MAX_SHOWN} more` : '');

const lowerFirst = (text: string): string =>
  /^[A-Z][a-z]/.test(text) ? `${text.charAt(0).toLowerCase()}${text.slice(1)}` : text;
