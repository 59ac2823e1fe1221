import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Prd, Story } from '../core/types.js';
import { prdToJson, prdToMarkdown } from './convert.js';
import { parsePrdJson } from './parse-prd-json.js';
import { parsePrdMd } from './parse-prd-md.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/sources/${name}`, import.meta.url), 'utf8');

function prdOf(result: ReturnType<typeof parsePrdMd>): Prd {
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.prd;
}

/** The fields both formats carry. */
const shared = (prd: Prd) => ({
  project: prd.project,
  branchName: prd.branchName,
  description: prd.description,
  stories: prd.stories.map((s) => ({
    id: s.id,
    title: s.title,
    description: s.description,
    acceptanceCriteria: s.acceptanceCriteria,
    // Each criterion's tick as a reader sees it: its own, else what the status implies.
    ticks: s.acceptanceCriteria.map((_, i) => s.checkedCriteria?.[i] ?? s.status === 'done'),
    priority: s.priority,
    status: s.status,
    dependsOn: s.dependsOn,
    notes: s.notes,
  })),
});

describe('convert', () => {
  it('md -> json -> md reproduces the stories exactly', () => {
    const fromMd = prdOf(parsePrdMd(fixture('prd.md'), 'prd.md'));
    const json = prdToJson(fromMd);
    const fromJson = prdOf(parsePrdJson(json, 'prd.json'));
    expect(shared(fromJson)).toEqual(shared(fromMd));
    const md = prdToMarkdown(fromJson);
    expect(shared(prdOf(parsePrdMd(md, 'prd.md')))).toEqual(shared(fromMd));
    expect(prdToMarkdown(prdOf(parsePrdMd(md, 'prd.md')))).toBe(md);
  });

  it('json -> md -> json keeps the shared fields of the snarktank fixture', () => {
    const fromJson = prdOf(parsePrdJson(fixture('prd.json'), 'prd.json'));
    const md = prdToMarkdown(fromJson);
    const back = prdOf(parsePrdMd(md, 'prd.md'));
    // An empty notes string has nothing to write in markdown.
    const expected = shared(fromJson);
    for (const story of expected.stories) if (story.notes === '') story.notes = undefined;
    expect(shared(back)).toEqual(expected);
  });

  it('writes a stable, readable markdown layout', () => {
    const prd = prdOf(parsePrdJson(fixture('prd.json'), 'prd.json'));
    const md = prdToMarkdown(prd);
    expect(md.startsWith('# Invoice Tracker\n\nTrack invoices from draft to paid')).toBe(true);
    expect(md).toContain('**Branch:** ralph/invoice-tracker\n\n## User Stories\n');
    expect(md).toContain(
      [
        '### US-002: Create invoice form',
        '',
        '**Status:** in-progress',
        '**Priority:** 2',
        '**Description:** As a user, I want to create a draft invoice.',
        '**Depends on:** US-001',
        '',
        '**Acceptance Criteria:**',
        '- [ ] Form with customer, amount and due date',
      ].join('\n'),
    );
    expect(md).toContain('- [x] Typecheck passes\n\n**Notes:** Amounts are integer cents.');
    expect(md.endsWith('\n')).toBe(true);
    expect(md.endsWith('\n\n')).toBe(false);
  });

  it('writes 2-space JSON with passes and inProgress for every story, and ticks that differ from the status', () => {
    const prd = prdOf(parsePrdMd(fixture('prd.md'), 'prd.md'));
    const json = prdToJson(prd);
    expect(json.endsWith('}\n')).toBe(true);
    const data = JSON.parse(json);
    expect(data.userStories[1]).toEqual({
      id: 'US-002',
      title: 'Create an event',
      description: 'As a user, I want to create an event from the week view.',
      acceptanceCriteria: [
        '"New event" button opens a form',
        'Event appears in the week view after saving',
        'Typecheck passes',
      ],
      acceptanceCriteriaChecked: [false, true, false],
      priority: 2,
      passes: false,
      inProgress: true,
      dependsOn: ['US-001'],
    });
    expect(data.userStories[0]).not.toHaveProperty('acceptanceCriteriaChecked');
    expect(json).toContain('\n  "userStories": [\n    {\n      "id": "US-001",');
  });

  it('round-trips any PRD both formats can express, ticks included (property)', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.'()/-]{0,30}[A-Za-z0-9.)]$/);
    const id = fc.oneof(
      fc.stringMatching(/^[A-Z]{1,4}(-[0-9]{1,4})?$/),
      fc.stringMatching(/^[0-9]{1,2}\.[0-9]{1,2}$/),
    );
    const storyArb = (ids: string[]) =>
      fc.record({
        title: word,
        description: fc.option(
          fc.array(word, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n')),
          {
            nil: '',
          },
        ),
        criteria: fc.array(fc.tuple(word, fc.boolean()), { maxLength: 4 }),
        ownTicks: fc.boolean(),
        priority: fc.integer({ min: -5, max: 1000 }),
        status: fc.constantFrom('todo', 'in-progress', 'done' as const),
        dependsOn: fc.subarray(ids),
        notes: fc.option(word, { nil: undefined }),
      });
    const prdArb = fc.uniqueArray(id, { minLength: 1, maxLength: 6 }).chain((ids) =>
      fc.record({
        project: word,
        branchName: fc.option(fc.stringMatching(/^[a-z]+\/[a-z-]{1,12}[a-z]$/), { nil: undefined }),
        description: fc.option(word, { nil: undefined }),
        stories: fc.tuple(...ids.map(() => storyArb(ids))).map((stories) =>
          stories.map(
            ({ criteria, ownTicks, ...s }, i): Story => ({
              ...s,
              acceptanceCriteria: criteria.map(([text]) => text),
              ...(ownTicks ? { checkedCriteria: criteria.map(([, tick]) => tick) } : {}),
              id: ids[i] ?? '',
              order: i + 1,
              location: { file: 'prd.json' },
              ...(s.notes === undefined ? { notes: undefined } : {}),
            }),
          ),
        ),
      }),
    );

    fc.assert(
      fc.property(prdArb, (generated) => {
        const prd: Prd = { format: 'prd-json', path: 'prd.json', ...generated };
        const viaJson = prdOf(parsePrdJson(prdToJson(prd), 'prd.json'));
        expect(shared(viaJson)).toEqual(shared(prd));
        const viaMd = prdOf(parsePrdMd(prdToMarkdown(viaJson), 'prd.md'));
        expect(shared(viaMd)).toEqual(shared(prd));
        expect(prdToJson(viaMd)).toBe(prdToJson(prd));
      }),
      { numRuns: 200 },
    );
  });
});

describe('convert loses nothing', () => {
  const tuiJson = `${JSON.stringify(
    {
      name: 'Labels',
      branchName: 'feature/labels',
      metadata: { createdAt: '2026-01-29', sourcePrd: 'tasks/prd.md' },
      userStories: [
        {
          id: 'FEAT-1-1',
          title: 'First',
          acceptanceCriteria: ['Works -- even with <b>tags</b> and **stars**'],
          priority: 12,
          passes: true,
          labels: ['ui', 'p1'],
          completionNotes: 'Checked by hand --> fine',
          metadata: { points: 3 },
        },
        {
          id: 'US-002',
          title: 'Second',
          acceptanceCriteria: [],
          priority: 2,
          passes: false,
          dependsOn: ['FEAT-1-1'],
        },
      ],
    },
    null,
    2,
  )}\n`;

  it("json -> md -> json keeps ralph-tui's labels, completionNotes, metadata and the top-level metadata", () => {
    const md = prdToMarkdown(prdOf(parsePrdJson(tuiJson, 'prd.json')));
    const back = JSON.parse(prdToJson(prdOf(parsePrdMd(md, 'prd.md'))));
    const original = JSON.parse(tuiJson);
    expect(back.metadata).toEqual(original.metadata);
    expect(back.userStories[0]).toMatchObject({
      labels: ['ui', 'p1'],
      completionNotes: 'Checked by hand --> fine',
      metadata: { points: 3 },
      acceptanceCriteria: ['Works -- even with <b>tags</b> and **stars**'],
      priority: 12,
    });
    // ralph-tui's `name` stays `name`: the file comes back with the fields it had.
    expect([back.name, back.project]).toEqual(['Labels', undefined]);
    expect(back).toEqual(original);
  });

  it('carries those fields in one comment before the first story, where Chief and ralph-tui read nothing', () => {
    const md = prdToMarkdown(prdOf(parsePrdJson(tuiJson, 'prd.json')));
    const comment = md.slice(md.indexOf('<!-- ralph:'), md.indexOf('-->') + 3);
    expect(md.indexOf('## User Stories')).toBeLessThan(md.indexOf('<!-- ralph:'));
    expect(md.indexOf('-->')).toBeLessThan(md.indexOf('### Feature 1.1: First'));
    expect(comment.slice(4, -3)).not.toMatch(/--|[*<>]/);
  });

  it('writes FEAT-1-1 as ralph-tui writes it and a priority past 9 as +12, which ralph-tui does not misread', () => {
    const md = prdToMarkdown(prdOf(parsePrdJson(tuiJson, 'prd.json')));
    expect(md).toContain('### Feature 1.1: First\n\n**Status:** done\n**Priority:** +12\n');
    expect(prdOf(parsePrdMd(md, 'prd.md')).stories.map((s) => [s.id, s.priority])).toEqual([
      ['FEAT-1-1', 12],
      ['US-002', 2],
    ]);
  });

  it("md -> json -> md keeps a prd.md's Overview, Goals, Non-Goals and the rest, in place", () => {
    const md = [
      '# PRD: Tasks',
      '',
      '## Overview',
      '',
      'Tasks with priorities.',
      '',
      '## Goals',
      '',
      '- Order work',
      '',
      '## User Stories',
      '',
      '### US-001: Field',
      '**Description:** Add the field.',
      '',
      '**Acceptance Criteria:**',
      '- [x] Column exists',
      '  - defaults to medium',
      '',
      '## Non-Goals',
      '',
      '- No notifications',
      '',
      '## Functional Requirements',
      '',
      '- FR-1: Add a priority column',
      '',
    ].join('\n');
    const prd = prdOf(parsePrdMd(md, 'prd.md'));
    expect(prd.description).toBe('Tasks with priorities.');
    const json = JSON.parse(prdToJson(prd));
    expect(json.markdownSections).toEqual([
      {
        markdown: '## Overview\n\nTasks with priorities.\n\n## Goals\n\n- Order work\n\n## User Stories',
        beforeStory: 'US-001',
      },
      {
        markdown:
          '## Non-Goals\n\n- No notifications\n\n## Functional Requirements\n\n- FR-1: Add a priority column',
      },
    ]);
    expect(json.userStories[0].acceptanceCriteria).toEqual(['Column exists\n  - defaults to medium']);
    const back = prdToMarkdown(prdOf(parsePrdJson(prdToJson(prd), 'prd.json')));
    expect(back).toBe(prdToMarkdown(prd));
    expect(back).toContain('## Goals\n\n- Order work\n\n## User Stories\n\n### US-001: Field\n');
    expect(back).toContain('- [x] Column exists\n  - defaults to medium\n\n## Non-Goals\n');
    expect(back.match(/Tasks with priorities\./g)).toHaveLength(1);
  });
});
