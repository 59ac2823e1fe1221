/**
 * The cases in the wild task files (test/fixtures/peers/wild/) that ralph
 * used to misread, each on the real file: sub-lists under a criterion, a
 * Design Decisions section of `DD-1` headings, `**Dependencies:**` in the
 * technical notes, snarktank-style JSON with its own field names, and the
 * spec directories of the format's origin with their stories.txt queue.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fencedBlocks } from '../../test/support/peer-fixtures.js';
import type { Prd } from '../core/types.js';
import { readPrd } from './load-task-source.js';
import { parseSpecFile } from './parse-spec-file.js';
import type { ReadResult } from './task-source.js';
import { withPrdMdStatus } from './write-prd-md.js';

const WILD = fileURLToPath(new URL('../../test/fixtures/peers/wild/', import.meta.url));
const wild = (rel: string): string => join(WILD, rel);

async function readAll(rel: string): Promise<Extract<ReadResult, { ok: true }>> {
  const result = await readPrd(wild(rel));
  if (!result.ok) throw new Error(JSON.stringify(result.issues.slice(0, 5), null, 2));
  return result;
}
const read = async (rel: string): Promise<Prd> => (await readAll(rel)).prd;
const storyOf = (prd: Prd, id: string) => {
  const story = prd.stories.find((s) => s.id === id);
  if (!story) throw new Error(`no story ${id}`);
  return story;
};

describe('a criterion with a sub-list is one criterion', () => {
  const greetup = 'MiniCodeMonkey/greetup/.chief/prds/main/prd.md';

  it('greetup: eleven sub-bullets under one [x] criterion of a done story stay with it', async () => {
    const prd = await read(greetup);
    const story = prd.stories.find((s) =>
      s.acceptanceCriteria.some((c) => c.startsWith('Per spec section 5.9.3')),
    );
    expect(story?.status).toBe('done');
    const criterion = story?.acceptanceCriteria.find((c) => c.startsWith('Per spec section 5.9.3')) ?? '';
    const lines = criterion.split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe('Per spec section 5.9.3, verify each view uses the correct pagination:');
    expect(lines[1]).toBe(
      '  - Explore page (events): 12 items, cursor pagination (infinite scroll via Livewire)',
    );
    expect(lines[11]).toBe('  - Notification dropdown: 10 items, load more button');
    expect(story?.acceptanceCriteria).toHaveLength(1);
  });

  it('greetup: marking a story done ticks its boxes and adds none', async () => {
    const text = readFileSync(wild(greetup), 'utf8');
    const prd = await read(greetup);
    const open = (s: string) => (s.match(/- \[ \]/g) ?? []).length;
    let after = text;
    for (const story of prd.stories) after = withPrdMdStatus(after, greetup, story.id, 'done');
    expect(open(text)).toBe(0);
    expect(open(after)).toBe(0);
    expect(after).toBe(text);
  });

  it('openapi-mocks: a criterion with sub-checkboxes keeps them, and done ticks them all', async () => {
    const rel = 'dabernathy89/openapi-mocks/.chief/prds/refactor-playwright-example/prd.md';
    const prd = await read(rel);
    const story = storyOf(prd, 'US-004');
    expect(story.acceptanceCriteria.map((c) => c.split('\n').length)).toEqual([3, 3, 3]);
    // The folder's prd.json (an older Chief's) has US-004 passed, so Chief's migration ticks its boxes.
    expect(story.status).toBe('done');
    expect(story.acceptanceCriteria[0]?.split('\n')[1]).toBe(
      '  - [x] Test navigates to `/users/usr_abc123`, asserts `[data-testid="user-id"]` shows `usr_abc123` (the exact path param echoed back)',
    );
    const done = withPrdMdStatus(readFileSync(wild(rel), 'utf8'), rel, 'US-004', 'done');
    const block = done.slice(done.indexOf('### US-004'), done.indexOf('### US-005'));
    expect(block.match(/- \[x\]/g)).toHaveLength(9);
    expect(block).not.toContain('- [ ]');
  });
});

describe('headings and fields that are not stories', () => {
  it('oss-prep: the Design Decisions DD-1..DD-5 are questions, not stories, and a warning says so', async () => {
    const { prd, warnings } = await readAll('becerra-alberto/oss-prep/tasks/prd-oss-prep-v2.md');
    expect(prd.stories.map((s) => s.id)).toEqual([
      'US-1.1',
      'US-2.1',
      'US-2.2',
      'US-2.3',
      'US-2.4',
      'US-2.5',
      'US-2.6',
      'US-2.7',
      'US-2.8',
      'US-2.9',
      'US-2.10',
      'US-3.1',
    ]);
    expect(storyOf(prd, 'US-3.1').acceptanceCriteria).toHaveLength(14);
    expect(warnings.map((w) => [w.line, w.message.slice(0, 12)])).toEqual([
      [15, '"### DD-1: S'],
      [21, '"### DD-2: S'],
      [27, '"### DD-3: S'],
      [33, '"### DD-4: H'],
      [39, '"### DD-5: S'],
    ]);
    expect(warnings[0]?.message).toMatch(
      /is outside the "4\. User Stories" section and has no criteria or story fields: not read as a story$/,
    );
  });

  it('MAT: a `- **Dependencies:** Keep minimal` bullet in Technical Considerations is not a story field', async () => {
    const prd = await read('Avacaato/MAT/tasks/prd.md');
    expect(prd.stories).toHaveLength(21);
    expect(prd.sections?.some((s) => s.markdown.includes('\n## Technical Considerations\n'))).toBe(true);
  });

  it('groundskeeper-willie: an empty `**Dependencies:**` label above a list is not a story field', async () => {
    const prd = await read('CKristensen/groundskeeper-willie/tasks/prd-groundskeeper-willie-v01.md');
    expect(prd.stories.map((s) => s.id)).toEqual([
      'US-001',
      'US-002',
      'US-003',
      'US-004',
      'US-005',
      'US-006',
      'US-007',
      'US-008',
    ]);
  });

  it('Implementation notes, a root cause, a design spec beside the fields are part of the description', async () => {
    const flare = await read('spatie/flare-cli/.chief/prds/bugfixes/prd.md');
    expect(flare.stories[0]?.description).toMatch(/\n\n\*\*Root cause:\*\* `LoginCommand\.php:41` reads/);
    const icon = await read('traubisoda/exercise-snack/.chief/prds/new-icon/prd.md');
    expect(icon.stories.some((s) => s.description.includes('**Design Spec:**\n- Background: green'))).toBe(
      true,
    );
  });
});

describe('snarktank-style JSON as written in the wild', () => {
  it('WellFi: projectName is the project, dependencies are dependsOn, qualityChecks and phase are kept', async () => {
    const prd = await read('Bushels/WellFi/prd.json');
    const raw = JSON.parse(readFileSync(wild('Bushels/WellFi/prd.json'), 'utf8'));
    expect(prd.project).toBe(raw.projectName);
    expect(Object.keys(prd.otherFields ?? {})).toEqual(['qualityChecks', 'phases']);
    const withDeps = raw.userStories.findIndex((s: { dependencies: string[] }) => s.dependencies.length > 0);
    expect(prd.stories[withDeps]?.dependsOn).toEqual(raw.userStories[withDeps].dependencies);
    expect(prd.stories[0]?.otherFields).toEqual({ phase: raw.userStories[0].phase });
  });

  it('codex-claude-ralph: projectName, acceptance_criteria, dependencies, no priority (file order)', async () => {
    const prd = await read('37chengshan/codex-claude-ralph/prd.json');
    expect(prd.stories.map((s) => [s.id, s.priority, s.acceptanceCriteria.length, s.dependsOn])).toEqual([
      ['S1', 1, 2, []],
      ['S2', 2, 2, ['S1']],
      ['S3', 3, 2, ['S1', 'S2']],
    ]);
    expect(Object.keys(prd.stories[0]?.otherFields ?? {})).toEqual(['suggested_tests']);
  });

  it('se-prototype-schedule: the priority words are read; only the missing project is refused', async () => {
    const result = await readPrd(wild('AustinHardcastleDev/se-prototype-schedule/prd.json'));
    expect(result.ok ? [] : result.issues.filter((i) => i.severity === 'error').map((i) => i.path)).toEqual([
      'project',
    ]);
    if (result.ok) return;
    expect(result.partial?.stories.slice(0, 3).map((s) => s.priority)).toEqual([2, 2, 2]);
  });
});

describe('spec directories with a .ralph/stories.txt queue', () => {
  it('oss-prep: the queue orders the stories and each batch waits for the one before', async () => {
    const prd = await read('becerra-alberto/oss-prep/specs');
    const ids = prd.stories.map((s) => s.id);
    expect(ids).toEqual(['1.1', ...Array.from({ length: 10 }, (_, i) => `2.${i + 1}`), '3.1']);
    expect(storyOf(prd, '3.1').dependsOn).toEqual(ids.slice(1, 11));
    expect(storyOf(prd, '2.10').dependsOn).toEqual(['1.1']);
    expect(storyOf(prd, '2.1').acceptanceCriteria.map((c) => c.slice(0, 6))).toEqual([
      'AC1: P',
      'AC2: S',
      'AC3: A',
      'AC4: U',
      'AC5: I',
      'AC6: V',
    ]);
  });

  it('ralphetamine run-parallel: batch 1 waits for batch 0, batch 2 for batch 1', async () => {
    const prd = await read('becerra-alberto/ralphetamine/sandbox/run-parallel/specs');
    expect(prd.stories.map((s) => [s.id, s.dependsOn])).toEqual([
      ['1.1', []],
      ['1.2', ['1.1']],
      ['2.1', ['1.2', '1.1']],
      ['2.2', ['1.2', '1.1']],
      ['2.3', ['1.2', '1.1']],
      ['3.1', ['2.1', '2.2', '2.3']],
    ]);
  });

  it('ralphetamine run-sequential: a queue without batches adds no dependencies', async () => {
    const prd = await read('becerra-alberto/ralphetamine/sandbox/run-sequential/specs');
    expect(prd.stories.map((s) => s.id)).toEqual(['1.1', '1.2', '1.3']);
  });

  it("the spec template's `### Files to Create/Modify` inside Acceptance Criteria is not criteria", () => {
    const template = readFileSync(wild('becerra-alberto/ralphetamine/commands/create-spec.md'), 'utf8');
    // The template's front matter holds placeholders (`priority: critical|high|medium|low`); its body is the point.
    const spec = (fencedBlocks(template, 'markdown')[0] ?? '').replace(
      /^---\n[\s\S]*?\n---\n/,
      '---\nstatus: pending\n---\n',
    );
    const parsed = parseSpecFile(spec, 'specs/epic-1/story-1.1-x.md', 'x');
    expect(parsed.ok && parsed.story.acceptanceCriteria.map((c) => c.slice(0, 4))).toEqual([
      'AC1:',
      'AC2:',
      'AC3:',
    ]);
  });
});
