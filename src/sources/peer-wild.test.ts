/**
 * Task files other people wrote (test/fixtures/peers/wild/, repository,
 * path and commit in its README): Chief users' prd.md and the prd.json
 * Chief kept beside them, snarktank-style prd.json from other projects,
 * ralph-tui's own task files, spec directories with a stories.txt queue.
 * Each is read as its author's tool reads it (the restated readers in
 * test/support/peer-readers.ts, or the JSON itself), and refused only with
 * an error at the line that causes it.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chiefHoldsId,
  chiefMigrate,
  chiefReadMd,
  tuiHoldsId,
  tuiReadMd,
} from '../../test/support/peer-readers.js';
import {
  CHIEF_MD,
  chiefBoxes,
  JSON_FILES,
  REFUSED,
  statusOf,
  TUI_MD,
  wildText as text,
  wild,
} from '../../test/support/wild-fixtures.js';
import type { Prd } from '../core/types.js';
import { readPrd } from './load-task-source.js';
import type { ReadResult } from './task-source.js';

async function read(rel: string): Promise<Prd> {
  const result = await readPrd(wild(rel));
  if (!result.ok) throw new Error(JSON.stringify(result.issues.slice(0, 5), null, 2));
  return result.prd;
}

describe("Chief users' prd.md, read as Chief reads them", () => {
  for (const [rel, count] of Object.entries(CHIEF_MD)) {
    it(rel, async () => {
      const prd = await read(rel);
      // An older Chief folder (prd.json beside) is read after Chief's migration of its statuses.
      const beside = rel.replace(/prd\.md$/, 'prd.json');
      const json = rel.endsWith('/prd.md') && existsSync(wild(beside)) ? text(beside) : undefined;
      const chief = chiefReadMd(json === undefined ? text(rel) : chiefMigrate(text(rel), json));
      expect(prd.stories).toHaveLength(count);
      const held = prd.stories.filter((s) => chiefHoldsId(s.id));
      expect(held.map((s) => s.id)).toEqual(chief.stories.map((s) => s.id));
      held.forEach((story, i) => {
        const theirs = chief.stories[i];
        if (!theirs) throw new Error(`Chief has no story ${story.id}`);
        expect([story.id, story.title, story.status, story.priority]).toEqual([
          theirs.id,
          theirs.title,
          statusOf(theirs),
          theirs.priority,
        ]);
        const boxes = chiefBoxes(story);
        expect([story.id, boxes.length]).toEqual([story.id, theirs.acceptanceCriteria.length]);
        boxes.forEach((box, k) => {
          expect(box.startsWith(theirs.acceptanceCriteria[k] ?? '\u0000')).toBe(true);
        });
      });
    });
  }
});

describe("prd.md written for ralph-tui, read as ralph-tui's parser reads them", () => {
  for (const [rel, count] of Object.entries(TUI_MD)) {
    it(rel, async () => {
      const prd = await read(rel);
      const tui = tuiReadMd(text(rel));
      expect(prd.stories).toHaveLength(count);
      const held = prd.stories.filter((s) => tuiHoldsId(s.id));
      expect(held.map((s) => [s.id, s.title])).toEqual(tui.stories.map((s) => [s.id, s.title]));
      held.forEach((story, i) => {
        const theirs = tui.stories[i];
        const firstLines = story.acceptanceCriteria.map((c) => c.split('\n')[0] ?? '');
        expect(firstLines.length).toBe(theirs?.acceptanceCriteria.length);
        firstLines.forEach((line, k) => {
          expect(line.startsWith(theirs?.acceptanceCriteria[k] ?? '\u0000')).toBe(true);
        });
        expect(story.dependsOn).toEqual(theirs?.dependsOn ?? []);
      });
    });
  }
});

const PRIORITY_WORDS: Record<string, number> = { critical: 1, high: 2, medium: 3, low: 4 };

describe('prd.json as written in the wild, read as the JSON says', () => {
  for (const [rel, count] of Object.entries(JSON_FILES)) {
    it(rel, async () => {
      const prd = await read(rel);
      const raw = JSON.parse(text(rel)) as Record<string, unknown>;
      expect(prd.project).toBe(raw.project ?? raw.name ?? raw.productName ?? raw.projectName);
      const stories = raw.userStories as Record<string, unknown>[];
      expect(prd.stories).toHaveLength(count);
      const ids = new Set(stories.map((s) => s.id));
      let highest = 0;
      stories.forEach((s, i) => {
        const story = prd.stories[i];
        const word = typeof s.priority === 'string' ? PRIORITY_WORDS[s.priority.toLowerCase()] : undefined;
        const priority = typeof s.priority === 'number' ? s.priority : (word ?? highest + 1);
        highest = Math.max(highest, priority);
        const deps = [s.dependsOn, s.dependencies, s.depends_on].find(
          (d): d is string[] => Array.isArray(d) && (d.length === 0 || d.some((id) => ids.has(id))),
        );
        expect(story && [story.id, story.title, story.status, story.priority]).toEqual([
          s.id,
          s.title ?? s.id,
          statusOf(s as { passes: boolean; inProgress?: boolean }),
          priority,
        ]);
        expect(story?.acceptanceCriteria).toEqual(s.acceptanceCriteria ?? s.acceptance_criteria ?? []);
        expect(story?.dependsOn).toEqual(deps ?? []);
        expect(story?.description).toBe(s.description ?? '');
      });
    });
  }
});

describe('files ralph refuses, at the line that causes it', () => {
  for (const [rel, { line, message }] of Object.entries(REFUSED)) {
    it(rel, async () => {
      const result: ReadResult = await readPrd(wild(rel));
      expect(result.ok).toBe(false);
      const first = result.ok ? undefined : result.issues.find((i) => i.severity === 'error');
      expect(first?.line).toBe(line);
      expect(`${first?.path ? `${first.path}: ` : ''}${first?.message}`).toMatch(message);
    });
  }
});
