/**
 * ralphetamine's `.ralph/stories.txt` queues with batches, from its own
 * repository (test/fixtures/peers/wild/becerra-alberto/, repository, path
 * and commit in the README), read as ralphetamine runs them
 * (`ralphetamineGroups`, restated from its lib/stories.sh and
 * lib/parallel.sh): the stories above the first batch marker first, then
 * each batch in the order it first appears, `[batch:0]` a group of its own.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ralphetamineGroups } from '../../test/support/peer-readers.js';
import { wild, wildText } from '../../test/support/wild-fixtures.js';
import { readPrd } from './load-task-source.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A project laid out as ralphetamine expects: `.ralph/stories.txt` beside `specs/`. */
function project(queue: string, specs: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ralph-queue-'));
  made.push(dir);
  mkdirSync(join(dir, '.ralph'));
  cpSync(wild(queue), join(dir, '.ralph', 'stories.txt'));
  cpSync(wild(specs), join(dir, 'specs'), { recursive: true });
  return dir;
}

const ROOT = 'becerra-alberto/ralphetamine/';
const QUEUES: Record<string, { queue: string; specs: string }> = {
  'tests/fixtures/pipeline (unbatched stories, then [batch:1], then [batch:0], then [batch:2])': {
    queue: `${ROOT}tests/fixtures/pipeline/stories.txt`,
    specs: `${ROOT}tests/fixtures/pipeline/specs`,
  },
  'sandbox/run-full ([batch:0] first)': {
    queue: `${ROOT}sandbox/run-full/.ralph/stories.txt`,
    specs: `${ROOT}sandbox/run-full/specs`,
  },
  'sandbox/run-parallel': {
    queue: `${ROOT}sandbox/run-parallel/.ralph/stories.txt`,
    specs: `${ROOT}sandbox/run-parallel/specs`,
  },
  'oss-prep (batches 1, 2, 3)': {
    queue: 'becerra-alberto/oss-prep/.ralph/stories.txt',
    specs: 'becerra-alberto/oss-prep/specs',
  },
};

describe("ralphetamine's queues, in ralphetamine's order", () => {
  for (const [name, { queue, specs }] of Object.entries(QUEUES)) {
    it(name, async () => {
      const dir = project(queue, specs);
      const result = await readPrd(join(dir, 'specs'));
      if (!result.ok) throw new Error(JSON.stringify(result.issues.slice(0, 3), null, 2));
      const groups = ralphetamineGroups(wildText(queue));
      expect(result.prd.stories.map((s) => s.id)).toEqual(groups.flatMap((g) => g.ids));
      const order = groups.flatMap((g) => g.ids);
      groups.forEach((group, i) => {
        const before = groups[i - 1]?.ids ?? [];
        for (const id of group.ids) {
          const story = result.prd.stories.find((s) => s.id === id);
          const later = new Set(order.slice(order.indexOf(id)));
          // Each story waits for the whole group before its own, and for nothing ralphetamine runs after it.
          expect([id, before.filter((b) => !story?.dependsOn.includes(b))]).toEqual([id, []]);
          expect([id, story?.dependsOn.filter((d) => later.has(d))]).toEqual([id, []]);
        }
      });
    });
  }

  it('pipeline: [batch:0] below [batch:1] is its own group, after batch 1, not merged with the unbatched stories', () => {
    const groups = ralphetamineGroups(wildText(`${ROOT}tests/fixtures/pipeline/stories.txt`));
    expect(groups.map((g) => [g.batch, g.ids])).toEqual([
      [undefined, ['1.1', '1.2']],
      ['1', ['2.1', '2.2', '2.3']],
      ['0', ['3.1', '3.2']],
      ['2', ['4.1', '4.2']],
    ]);
  });

  it('tests/fixtures: a queued story without its spec is refused at its line in the queue', async () => {
    const dir = project(`${ROOT}tests/fixtures/stories.txt`, `${ROOT}tests/fixtures/specs`);
    const result = await readPrd(join(dir, 'specs'));
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.issues.filter((i) => i.severity === 'error');
    expect(errors.map((e) => [e.line, e.message])).toEqual([
      [7, '2.2 is queued but the spec directory has no story-2.2-*.md'],
      [9, '3.1 is queued but the spec directory has no story-3.1-*.md'],
    ]);
    expect(dirname(errors[0]?.file ?? '')).toBe(join(dir, '.ralph'));
  });
});
