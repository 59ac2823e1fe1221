import { createHash } from 'node:crypto';
import type { JsonOriginal, JsonOriginals, Prd, Story } from '../core/types.js';

/**
 * A prd.json carried through a prd.md and back gives every field back as it
 * was written: multi-line notes with their blank lines and indentation,
 * criteria with their leading spaces, empty values (`notes: ""`,
 * `dependsOn: []`), `name` / `projectName` / `productName` for the project,
 * priority words, the other spellings of a field. A prd.md holds what its
 * readers can read; the objects it cannot give back exactly travel in the
 * prd.md's fields comment (fields-comment.ts), each with a digest of how
 * the prd.md read it. Back in JSON, an object whose prd.md reading is
 * unchanged is written as it was (its status as the prd.md now says); one
 * the user has edited in the prd.md is written from the prd.md.
 */

const digest = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

/** How a prd.md reads a story, its status aside (a run changes that, and it is written back as is). */
export const storyReading = (story: Story): string =>
  digest([
    story.id,
    story.title,
    story.description,
    story.acceptanceCriteria,
    story.checkedCriteria?.some((tick) => tick !== (story.status === 'done')) ? story.checkedCriteria : null,
    story.priority,
    story.dependsOn,
    story.notes ?? null,
    story.otherFields ?? null,
  ]);

/** How a prd.md reads the file's own fields. */
export const topReading = (prd: Prd): string =>
  digest([
    prd.project,
    prd.branchName ?? null,
    prd.description ?? null,
    prd.otherFields ?? null,
    prd.sections ?? null,
  ]);

/** A prd.json's objects as written, each with the digest of how ralph read it (`prd`). */
export function originalsOf(
  top: Record<string, unknown>,
  stories: readonly unknown[],
  prd: Prd,
): JsonOriginals {
  const read = new Map(prd.stories.map((s) => [s.id, s]));
  const byId: Record<string, JsonOriginal> = {};
  for (const raw of stories) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) continue;
    const story = read.get(String((raw as { id?: unknown }).id));
    if (story && !(story.id in byId))
      byId[story.id] = { value: raw as Record<string, unknown>, reading: storyReading(story) };
  }
  return { top: { value: { ...top, userStories: null }, reading: topReading(prd) }, stories: byId };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The originals a prd.md must carry: those the prd.md, read back (`reread`),
 * would not give back as they were (`written` is what ralph writes from the
 * reading), each with the digest of that reading.
 */
export function originalsToCarry(
  originals: JsonOriginals,
  reread: Prd,
  written: { top: Record<string, unknown>; stories: Record<string, unknown>[] },
): JsonOriginals | undefined {
  const stories: Record<string, JsonOriginal> = {};
  reread.stories.forEach((story, i) => {
    const original = originals.stories[story.id];
    if (original && !same(original.value, written.stories[i]))
      stories[story.id] = { value: original.value, reading: storyReading(story) };
  });
  const top =
    originals.top && !same(originals.top.value, { ...written.top, userStories: null })
      ? { value: originals.top.value, reading: topReading(reread) }
      : undefined;
  if (top === undefined && Object.keys(stories).length === 0) return undefined;
  return { ...(top ? { top } : {}), stories };
}

/** A story's original object, its status set as the story's, when the prd.md still reads it as it did. */
export function originalStory(
  originals: JsonOriginals | undefined,
  story: Story,
): Record<string, unknown> | undefined {
  const original = originals?.stories[story.id];
  if (!original?.reading || original.reading !== storyReading(story)) return undefined;
  const value: Record<string, unknown> = { ...original.value, passes: story.status === 'done' };
  if ('inProgress' in value || story.status === 'in-progress')
    value.inProgress = story.status === 'in-progress';
  return value;
}

/** The file's original top level with `stories` in its place, when the prd.md still reads it as it did. */
export function originalTop(
  originals: JsonOriginals | undefined,
  prd: Prd,
  stories: unknown[],
): Record<string, unknown> | undefined {
  const top = originals?.top;
  if (!top?.reading || top.reading !== topReading(prd)) return undefined;
  return { ...top.value, userStories: stories };
}
