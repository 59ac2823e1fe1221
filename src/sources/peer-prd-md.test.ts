/**
 * prd.md as Chief and ralph-tui users write it: the inputs of the peers' own
 * parser tests (test/fixtures/peers/), read by ralph, with the peers'
 * expectations. Where ralph deliberately differs (it refuses what a peer
 * would guess at or drop), the test says so.
 */
import { describe, expect, it } from 'vitest';
import { goTestInput, goTestStrings, peerFile, tsTestMarkdown } from '../../test/support/peer-fixtures.js';
import type { Prd } from '../core/types.js';
import { parsePrdMd } from './parse-prd-md.js';
import { UnknownStoryError } from './source-errors.js';
import { withGraphIssues } from './with-graph-issues.js';
import { withPrdMdStatus } from './write-prd-md.js';

const F = 'prd.md';
const chiefTests = peerFile('chief/internal/prd/markdown_test.go');
const chiefWriterTests = peerFile('chief/internal/prd/markdown_writer_test.go');
const tuiTests = tsTestMarkdown(peerFile('ralph-tui/src/prd/parser.test.ts.txt'));

function read(text: string): Prd {
  const result = withGraphIssues(parsePrdMd(text, F));
  if (!result.ok) throw new Error(JSON.stringify(result.issues, null, 2));
  return result.prd;
}

const chief = (test: string): Prd => read(goTestInput(chiefTests, test));
const tui = (test: string): Prd => {
  const md = tuiTests.get(test);
  if (md === undefined) throw new Error(`no markdown for "${test}"`);
  return read(md);
};
const ids = (prd: Prd) => prd.stories.map((s) => s.id);

describe("Chief's markdown_test.go inputs", () => {
  it('Normal: project without "PRD:", statuses, explicit and prose descriptions', () => {
    const prd = chief('TestParseMarkdownPRDFromString_Normal');
    expect(prd.project).toBe('My Test Project');
    expect(prd.description).toBe('A sample project for testing.');
    expect(prd.stories.map((s) => [s.id, s.title, s.status])).toEqual([
      ['US-001', 'Setup Project', 'done'],
      ['US-002', 'Add Feature', 'in-progress'],
      ['US-003', 'Final Polish', 'todo'],
    ]);
    expect(prd.stories[0]?.priority).toBe(1);
    expect(prd.stories[0]?.acceptanceCriteria).toHaveLength(2);
    expect(prd.stories[1]?.description).toBe('As a user, I want a new feature.');
    expect(prd.stories[2]?.description).toBe('Some prose description here.');
    expect(prd.stories[2]?.acceptanceCriteria).toHaveLength(2);
  });

  it('any PREFIX-123 id, a minimal story, phase headings, free sections', () => {
    const noPrefix = chief('TestParseMarkdownPRDFromString_ProjectWithoutPRDPrefix');
    expect([noPrefix.project, ids(noPrefix)]).toEqual(['My Project', ['FEAT-001']]);
    const minimal = chief('TestParseMarkdownPRDFromString_MissingFields').stories[0];
    expect([minimal?.id, minimal?.priority, minimal?.status]).toEqual(['US-001', 1, 'todo']);
    expect(ids(chief('TestParseMarkdownPRDFromString_PhaseHeadingsIgnored'))).toEqual(['US-001', 'US-002']);
    expect(ids(chief('TestParseMarkdownPRDFromString_FreeSections'))).toEqual(['US-001']);
    expect(chief('TestParseMarkdownPRDFromString_IntroductionSection').description).toBe(
      'This is the introduction paragraph.',
    );
  });

  it("every status word of Chief's table maps as Chief maps it", () => {
    const rows = [...chiefTests.matchAll(/\{"([^"]*)", (true|false), (true|false)\}/g)].map((m) => ({
      word: m[1] ?? '',
      passes: m[2] === 'true',
      inProgress: m[3] === 'true',
    }));
    expect(rows.map((r) => r.word)).toContain('completed');
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const row of rows) {
      const status = read(`# P\n\n### US-001: S\n**Status:** ${row.word}\n`).stories[0]?.status;
      expect([row.word, status]).toEqual([
        row.word,
        row.passes ? 'done' : row.inProgress ? 'in-progress' : 'todo',
      ]);
    }
  });

  it('#### story headings under ### grouping headings, each story kept with its own criteria', () => {
    const prd = chief('TestParseMarkdownPRDFromString_H4StoryHeadings');
    expect(prd.project).toBe('Phased Project');
    expect(ids(prd)).toEqual(['US-001', 'US-002', 'US-003']);
    expect(prd.stories[0]?.acceptanceCriteria).toEqual(['Theme configured', 'Tokens defined']);
    expect(prd.stories[1]?.acceptanceCriteria).toEqual(['Components built']);
    expect(prd.stories[2]?.status).toBe('done');
  });

  it("a missing priority is one after the highest so far; decimals are kept (Chief's AutoPriority, FloatPriority)", () => {
    expect(chief('TestParseMarkdownPRDFromString_AutoPriority').stories.map((s) => s.priority)).toEqual([
      1, 5, 6,
    ]);
    expect(chief('TestParseMarkdownPRDFromString_FloatPriority').stories.map((s) => s.priority)).toEqual([
      0.1, 1.5, 2,
    ]);
  });
});

describe("Chief's markdown_writer_test.go inputs, written back by ralph", () => {
  const input = (test: string) => goTestInput(chiefWriterTests, test);

  it('replaces the status line and ticks only that story', () => {
    const out = withPrdMdStatus(input('TestSetStoryStatusInString_ExistingStatusLine'), F, 'US-001', 'done');
    expect(out).toContain('**Status:** done');
    expect(out).not.toContain('**Status:** todo');
    expect(out).toContain('- [x] A');
    expect(out).toContain('- [x] B');
    expect(out).toContain('- [ ] C');
  });

  it('inserts a missing status line directly under the heading', () => {
    const out = withPrdMdStatus(
      input('TestSetStoryStatusInString_MissingStatusLine'),
      F,
      'US-001',
      'in-progress',
    );
    const lines = out.split('\n');
    expect(lines[lines.indexOf('### US-001: First') + 1]).toBe('**Status:** in-progress');
  });

  it('ticks every box of a done story and leaves the other stories alone', () => {
    const flipped = withPrdMdStatus(
      input('TestSetStoryStatusInString_CheckboxFlipping'),
      F,
      'US-001',
      'done',
    );
    expect(flipped).toContain('- [x] Unchecked A');
    expect(flipped).toContain('- [x] Already checked B');
    expect(flipped).toContain('- [x] Unchecked C');
    const multi = withPrdMdStatus(input('TestSetStoryStatusInString_MultiStory'), F, 'US-002', 'done');
    expect(multi).toContain('- [ ] A');
    expect(multi).toContain('- [x] B');
    expect(multi).toContain('- [ ] C');
  });

  it('refuses a story the file does not have', () => {
    expect(() =>
      withPrdMdStatus(input('TestSetStoryStatusInString_StoryNotFound'), F, 'US-999', 'done'),
    ).toThrow(UnknownStoryError);
  });

  it("reads back every status word it writes, and Chief's words are rewritten as done / in-progress / todo", () => {
    const text = '# P\n\n### US-001: S\n**Status:** completed\n- [ ] a\n';
    expect(read(text).stories[0]?.status).toBe('done');
    const back = withPrdMdStatus(text, F, 'US-001', 'in-progress');
    expect(back).toContain('**Status:** in-progress');
    expect(read(back).stories[0]?.status).toBe('in-progress');
  });

  it('every Go test in the writer file has an input', () => {
    expect([...goTestStrings(chiefWriterTests).keys()].length).toBeGreaterThanOrEqual(5);
  });
});

describe("ralph-tui's parser.test.ts inputs", () => {
  it('## / ### / #### headings with US-, PREFIX- and Feature N.N ids: all 9 combinations', () => {
    const prd = tui('parses all 9 possible combinations');
    expect(prd.stories.map((s) => [s.id, s.title])).toEqual([
      ['US-001', 'H2 with US format'],
      ['US-002', 'H3 with US format'],
      ['US-003', 'H4 with US format'],
      ['EPIC-100', 'H2 with PREFIX format'],
      ['FEAT-200', 'H3 with PREFIX format'],
      ['BUG-300', 'H4 with PREFIX format'],
      ['FEAT-1-1', 'H2 with Feature format'],
      ['FEAT-2-2', 'H3 with Feature format'],
      ['FEAT-3-3', 'H4 with Feature format'],
    ]);
  });

  it('H4 before H3, mixed levels, and H2 stories inside the stories section', () => {
    expect(tui('parses user stories with H4 headers (####)').stories.map((s) => [s.id, s.title])).toEqual([
      ['US-001', 'H4 Story'],
      ['US-002', 'H3 Story'],
    ]);
    expect(ids(tui('parses mixed H2, H3, and H4 headers'))).toEqual(['US-001', 'US-002', 'US-003']);
    expect(ids(tui('continues parsing H3/H4 story headers after H2 stories'))).toEqual([
      'US-001',
      'US-002',
      'US-003',
    ]);
  });

  it('Feature N.N headings read as FEAT-N-N, as ralph-tui reads them', () => {
    expect(tui('parses Feature format (Feature 1.1)').stories.map((s) => [s.id, s.title])).toEqual([
      ['FEAT-1-1', 'F-String Format Specifiers'],
      ['FEAT-1-2', 'StringIO Support'],
    ]);
    expect(ids(tui('parses mixed US-XXX and Feature formats'))).toEqual(['US-001', 'FEAT-2-1', 'US-002']);
    expect(ids(tui('parses Feature with H4 headers'))).toEqual(['FEAT-3-5']);
    expect(ids(tui('edge cases for each format'))).toEqual(['US-999', 'VERYLONGPREFIX-123456', 'FEAT-99-99']);
  });

  it('dotted ids', () => {
    expect(tui('parses US version-style IDs (US-2.1.1)').stories.map((s) => [s.id, s.title])).toEqual([
      ['US-2.1.1', 'Numerikus formázás'],
      ['US-2.1.2', 'Width és Alignment'],
      ['US-2.2.1', 'Match Statement'],
    ]);
    expect(ids(tui('parses mixed US-001 and US-X.Y.Z formats'))).toEqual(['US-001', 'US-1.2', 'US-1.2.3']);
    expect(ids(tui('US-X.Y.Z version format still works'))).toEqual(['US-2.1', 'US-2.1.1']);
  });

  it('keeps ids as written where ralph-tui renumbers them (US-1, US-9999)', () => {
    expect(ids(tui('US-1 and US-9999 are not matched by strict pattern (use fallback)'))).toEqual([
      'US-1',
      'US-9999',
    ]);
    expect(ids(tui('EPIC-1 and TASK-9999 are still matched by generic pattern'))).toEqual([
      'EPIC-1',
      'TASK-9999',
    ]);
  });

  it('headings after the stories section are not stories', () => {
    expect(ids(tui('stops parsing on unknown H2 section (## Architecture)'))).toEqual(['US-001']);
    expect(ids(tui('stops parsing on unknown H1 section'))).toEqual(['US-001']);
  });

  it('refuses, with its line, the id-less story that ralph-tui silently drops next to a real one', () => {
    const md = tuiTests.get('strict patterns take precedence over fallback') ?? '';
    const result = parsePrdMd(md, F);
    expect(result.ok).toBe(false);
    const line = md.split('\n').indexOf('### Epic 1: Non-Standard Story') + 1;
    expect(result.ok ? [] : result.issues.map((i) => [i.line, i.message])).toEqual([
      [
        line,
        'story heading without an id: expected "### US-001: Title", found "### Epic 1: Non-Standard Story"',
      ],
    ]);
  });
});
