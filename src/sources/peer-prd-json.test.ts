/**
 * prd.json from every peer (test/fixtures/peers/): ralph-tui's `name`,
 * `labels`, `metadata` and `completionNotes`, Chief's older files without
 * `acceptanceCriteria`, snarktank's example. Write-back keeps every byte it
 * does not own.
 */
import { describe, expect, it } from 'vitest';
import { fencedBlocks, goTestStrings, peerFile } from '../../test/support/peer-fixtures.js';
import { parsePrdJson } from './parse-prd-json.js';
import { withGraphIssues } from './with-graph-issues.js';
import { withPrdJsonStatus } from './write-prd-json.js';

const F = 'prd.json';
const tuiPrd = peerFile('ralph-tui/testing/test-prd.json');

const read = (text: string) => withGraphIssues(parsePrdJson(text, F));

describe("ralph-tui's prd.json", () => {
  it('reads `name` as the project, with every story and its dependencies', () => {
    const result = read(tuiPrd);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.prd.project).toBe('Ralph-TUI Test Feature');
    expect(result.prd.branchName).toBe('test/ralph-tui-e2e');
    expect(result.prd.stories.map((s) => [s.id, s.dependsOn])).toEqual([
      ['TEST-001', []],
      ['TEST-002', []],
      ['TEST-003', []],
      ['TEST-004', ['TEST-001', 'TEST-002']],
      ['TEST-005', ['TEST-003', 'TEST-004']],
    ]);
  });

  it('writes a status back keeping labels, metadata and completionNotes byte for byte', () => {
    const withNotes = tuiPrd.replace(
      '"priority": 3,',
      '"priority": 3,\n      "completionNotes": "Checked by hand on 2026-01-29",',
    );
    const after = withPrdJsonStatus(withNotes, F, 'TEST-005', 'done');
    const before = JSON.parse(withNotes);
    const written = JSON.parse(after);
    expect(written.userStories[4].passes).toBe(true);
    written.userStories[4].passes = false;
    expect(written).toEqual(before);
    expect(after.replace('"passes": true', '"passes": false')).toBe(withNotes);
  });
});

describe("Chief's prd.json files", () => {
  const migrate = goTestStrings(peerFile('chief/internal/prd/migrate_test.go'));

  it('reads the stories of its older files without acceptanceCriteria, with a warning for each', () => {
    const json = migrate.get('TestMigrateFromJSON')?.[0] ?? '';
    const result = read(json);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.prd.stories.map((s) => [s.id, s.status, s.acceptanceCriteria])).toEqual([
      ['US-001', 'done', []],
      ['US-002', 'in-progress', []],
      ['US-003', 'todo', []],
    ]);
    expect(result.warnings.map((w) => [w.path, w.severity])).toEqual([
      ['userStories[0].acceptanceCriteria', 'warning'],
      ['userStories[1].acceptanceCriteria', 'warning'],
      ['userStories[2].acceptanceCriteria', 'warning'],
    ]);
    expect(result.warnings[0]?.line).toBe(5);
  });

  it("reads Chief's own 26-story prd.json", () => {
    const result = read(peerFile('chief/ralph/prd.json'));
    expect(result.ok && result.prd.stories.length).toBe(26);
  });
});

describe("snarktank's prd.json", () => {
  it('reads prd.json.example and the example of the ralph skill', () => {
    const example = read(peerFile('snarktank-ralph/prd.json.example'));
    expect(example.ok && example.prd.stories.map((s) => s.id)).toEqual([
      'US-001',
      'US-002',
      'US-003',
      'US-004',
    ]);
    const skill = fencedBlocks(peerFile('snarktank-ralph/skills/ralph/SKILL.md'), 'json');
    const output = read(skill[skill.length - 1] ?? '');
    expect(output.ok && output.prd.project).toBe('TaskApp');
  });
});

describe('prd.json problems, all in one pass', () => {
  it('reports a schema error in one story together with a duplicate id and an unknown dependency', () => {
    const story = (id: string, extra = '') =>
      `{"id": "${id}", "title": "t", "acceptanceCriteria": ["Tests pass"], "priority": 1, "passes": false${extra}}`;
    const text = `{"project": "p", "userStories": [\n${[
      story('A', ', "dependsOn": ["Z"]'),
      story('A'),
      '{"id": "B", "title": "t", "acceptanceCriteria": [], "priority": "urgent", "passes": false}',
    ].join(',\n')}\n]}\n`;
    const result = read(text);
    expect(result.ok ? [] : result.issues.map((i) => [i.line, i.message])).toEqual([
      [4, 'expected number, received string'],
      [3, 'duplicate story id A (first defined at prd.json:2)'],
      [2, 'A depends on unknown story Z'],
    ]);
  });

  it('says where an empty story list is and what a story looks like', () => {
    const result = read('{\n  "project": "p",\n  "userStories": []\n}\n');
    expect(result.ok ? [] : result.issues).toEqual([
      {
        file: F,
        line: 3,
        column: 18,
        path: 'userStories',
        message:
          'no stories found: the list is empty; expected entries like {"id": "US-001", "title": "…", "acceptanceCriteria": ["…"], "priority": 1, "passes": false}',
        severity: 'error',
      },
    ]);
  });

  it('refuses JSON nested 10,000 deep at the level that is too deep', () => {
    const deep = `{"project": "p", "x": ${'['.repeat(10_000)}${']'.repeat(10_000)}, "userStories": []}`;
    const result = read(deep);
    expect(result.ok ? [] : result.issues).toEqual([
      {
        file: F,
        line: 1,
        column: 278,
        message: 'JSON nested more than 256 levels deep; a task file never needs that',
        severity: 'error',
      },
    ]);
  });
});
