/**
 * The restated peer readers agree with the peers' own tests: the inputs of
 * Chief's markdown_test.go and ralph-tui's parser.test.ts, with the
 * results those tests expect.
 */
import { describe, expect, it } from 'vitest';
import { goTestInput, peerFile, tsTestMarkdown } from './peer-fixtures.js';
import { chiefReadMd, tuiReadJson, tuiReadMd } from './peer-readers.js';

const chiefTests = peerFile('chief/internal/prd/markdown_test.go');
const chief = (test: string) => chiefReadMd(goTestInput(chiefTests, test));
const tuiTests = tsTestMarkdown(peerFile('ralph-tui/src/prd/parser.test.ts.txt'));
const tui = (test: string) => tuiReadMd(tuiTests.get(test) ?? '');

describe("Chief's reader, restated", () => {
  it("reads markdown_test.go's Normal input as Chief's test expects", () => {
    const prd = chief('TestParseMarkdownPRDFromString_Normal');
    expect([prd.project, prd.description]).toEqual(['My Test Project', 'A sample project for testing.']);
    expect(prd.stories.map((s) => [s.id, s.title, s.passes, s.inProgress])).toEqual([
      ['US-001', 'Setup Project', true, false],
      ['US-002', 'Add Feature', false, true],
      ['US-003', 'Final Polish', false, false],
    ]);
    expect(prd.stories.map((s) => s.description)).toEqual([
      'As a developer, I need a properly structured project.',
      'As a user, I want a new feature.',
      'Some prose description here.',
    ]);
    expect(prd.stories.map((s) => s.acceptanceCriteria.length)).toEqual([2, 2, 2]);
  });

  it('gives priorities as AutoPriority and FloatPriority expect', () => {
    expect(chief('TestParseMarkdownPRDFromString_AutoPriority').stories.map((s) => s.priority)).toEqual([
      1, 5, 6,
    ]);
    expect(chief('TestParseMarkdownPRDFromString_FloatPriority').stories.map((s) => s.priority)).toEqual([
      0.1, 1.5, 2,
    ]);
  });

  it('reads #### stories under ### phase headings, and only LETTERS-digits ids', () => {
    expect(chief('TestParseMarkdownPRDFromString_H4StoryHeadings').stories.map((s) => s.id)).toEqual([
      'US-001',
      'US-002',
      'US-003',
    ]);
    expect(chiefReadMd('# P\n\n### FEAT-1-1: A\n- [ ] a\n\n### US-2.1: B\n- [ ] b\n').stories).toEqual([]);
  });

  it("takes Go's %g reading of a priority: a sign is allowed, text after the number is not read", () => {
    const prd = chiefReadMd(
      '# P\n\n### US-001: A\n**Priority:** +12\n\n### US-002: B\n**Priority:** 3 (soon)\n',
    );
    expect(prd.stories.map((s) => s.priority)).toEqual([12, 3]);
  });
});

describe("ralph-tui's reader, restated", () => {
  it('reads the 9 heading combinations as parser.test.ts expects', () => {
    expect(tui('parses all 9 possible combinations').stories.map((s) => s.id)).toEqual([
      'US-001',
      'US-002',
      'US-003',
      'EPIC-100',
      'FEAT-200',
      'BUG-300',
      'FEAT-1-1',
      'FEAT-2-2',
      'FEAT-3-3',
    ]);
  });

  it('falls back to STORY-00N for US-1, keeps EPIC-1, stops at an unknown ## section', () => {
    expect(
      tui('US-1 and US-9999 are not matched by strict pattern (use fallback)').stories.map((s) => s.id),
    ).toEqual(['STORY-001', 'STORY-002']);
    expect(tui('EPIC-1 and TASK-9999 are still matched by generic pattern').stories.map((s) => s.id)).toEqual(
      ['EPIC-1', 'TASK-9999'],
    );
    expect(tui('stops parsing on unknown H2 section (## Architecture)').stories.map((s) => s.id)).toEqual([
      'US-001',
    ]);
  });

  it('reads one digit of a priority: **Priority:** 12 is 1', () => {
    const prd = tuiReadMd('# P\n\n### US-001: A\n**Priority:** 12\n\n### US-002: B\n**Priority:** +12\n');
    expect(prd.stories.map((s) => [s.priority, s.priorityRead])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('the JSON tracker refuses a story without a title or with a status field, and clamps priorities to 0-4', () => {
    const story = (extra: string) => `{"id": "A", "title": "T", "passes": false${extra}}`;
    expect(tuiReadJson(`{"name": "n", "userStories": [${story(', "priority": 12')}]}`)).toEqual({
      ok: true,
      name: 'n',
      stories: [{ id: 'A', title: 'T', passes: false, priority: 4 }],
    });
    expect(tuiReadJson(`{"project": "n", "userStories": [${story(', "status": "open"')}]}`).ok).toBe(false);
    expect(tuiReadJson('{"project": "n", "userStories": [{"id": "A", "passes": false}]}').ok).toBe(false);
  });
});
