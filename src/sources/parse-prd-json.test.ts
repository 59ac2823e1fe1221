import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePrdJson } from './parse-prd-json.js';

const fixture = new URL('../../test/fixtures/sources/prd.json', import.meta.url);
const F = 'prd.json';

function issuesOf(text: string) {
  const result = parsePrdJson(text, F);
  if (result.ok) throw new Error('expected the parse to fail');
  return result.issues;
}

const valid = (stories: string): string => `{\n  "project": "P",\n  "userStories": [\n${stories}\n  ]\n}\n`;
const storyJson = (id: string, extra = ''): string =>
  `    {"id": "${id}", "title": "T", "acceptanceCriteria": [], "priority": 1, "passes": false${extra}}`;

describe('parsePrdJson', () => {
  it('reads the snarktank-style fixture', () => {
    const result = parsePrdJson(readFileSync(fixture, 'utf8'), F);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const { prd } = result;
    expect(prd).toMatchObject({
      format: 'prd-json',
      path: F,
      project: 'Invoice Tracker',
      branchName: 'ralph/invoice-tracker',
      description: 'Track invoices from draft to paid, with reminders for late payers.',
    });
    expect(prd.stories.map((s) => [s.id, s.status, s.priority, s.order])).toEqual([
      ['US-001', 'done', 1, 1],
      ['US-002', 'in-progress', 2, 2],
      ['US-003', 'todo', 3, 3],
      ['US-004', 'todo', 4, 4],
    ]);
    const [first, second, , fourth] = prd.stories;
    expect(first?.notes).toBe('Amounts are integer cents.');
    expect(first?.location).toEqual({ file: F, line: 10, column: 5 });
    expect(second?.dependsOn).toEqual(['US-001']);
    expect(second?.acceptanceCriteria).toHaveLength(4);
    expect(fourth?.description).toBe('');
    expect(fourth?.dependsOn).toEqual(['US-001', 'US-003']);
  });

  it('reports a trailing comma at the comma', () => {
    const text = '{\n  "project": "P",\n  "userStories": [],\n}\n';
    expect(issuesOf(text)).toEqual([
      {
        file: F,
        line: 3,
        column: 20,
        message: 'invalid JSON: trailing comma is not allowed in JSON',
        severity: 'error',
      },
    ]);
  });

  it('reports a trailing comma inside an array', () => {
    const text = '{"project": "P", "userStories": [\n  1,\n  2,\n]}';
    expect(issuesOf(text)[0]).toMatchObject({
      line: 3,
      column: 4,
      message: expect.stringContaining('trailing comma'),
    });
  });

  it('reports comments as errors', () => {
    const text = '{\n  // the project\n  "project": "P"\n}';
    expect(issuesOf(text)).toEqual([
      {
        file: F,
        line: 2,
        column: 3,
        message: 'invalid JSON: comments are not allowed in JSON',
        severity: 'error',
      },
    ]);
  });

  it('reports a missing comma and an empty file', () => {
    expect(issuesOf('{\n  "project": "P"\n  "userStories": []\n}')[0]).toMatchObject({
      line: 3,
      column: 3,
      message: "invalid JSON: ',' expected",
    });
    expect(issuesOf('')[0]).toMatchObject({ line: 1, column: 1, message: 'invalid JSON: the file is empty' });
  });

  it('reports a wrong type with its path and the position of the value', () => {
    const third =
      '    {"id": "C", "title": "T", "acceptanceCriteria": [],\n     "priority": "2", "passes": false}';
    const text = valid([storyJson('A'), storyJson('B'), third].join(',\n'));
    expect(issuesOf(text)).toEqual([
      {
        file: F,
        line: 7,
        column: 18,
        path: 'userStories[2].priority',
        message: 'expected number, received string',
        severity: 'error',
      },
    ]);
  });

  it('places a missing field at the object that lacks it', () => {
    const text = valid('    {"id": "A", "title": "T", "acceptanceCriteria": [], "priority": 1}');
    expect(issuesOf(text)).toEqual([
      {
        file: F,
        line: 4,
        column: 5,
        path: 'userStories[0].passes',
        message: 'required boolean is missing',
        severity: 'error',
      },
    ]);
  });

  it('reports every schema problem, nested paths included', () => {
    const text =
      '{"userStories": [{"id": "", "title": "T", "acceptanceCriteria": [1], "priority": 1, "passes": false, "dependsOn": "A"}]}';
    const issues = issuesOf(text);
    expect(issues.map((i) => `${i.line}:${i.column} ${i.path}: ${i.message}`)).toEqual([
      '1:1 project: required string is missing (ralph-tui\'s "name" works too)',
      '1:25 userStories[0].id: story id must not be empty',
      '1:66 userStories[0].acceptanceCriteria[0]: expected string, received number',
      '1:115 userStories[0].dependsOn: expected array, received string',
    ]);
  });

  it('rejects a top-level array', () => {
    expect(issuesOf('[]')).toEqual([
      { file: F, line: 1, column: 1, message: 'expected object, received array', severity: 'error' },
    ]);
  });

  it('maps passes before inProgress', () => {
    const text = valid(
      [storyJson('A', ', "passes": true, "inProgress": true'), storyJson('B', ', "inProgress": false')].join(
        ',\n',
      ),
    );
    const result = parsePrdJson(text, F);
    expect(result.ok && result.prd.stories.map((s) => s.status)).toEqual(['done', 'todo']);
  });
});

describe('parsePrdJson as written in the wild', () => {
  const file = (top: string, stories: string[]) =>
    `{\n${top}  "userStories": [\n${stories.join(',\n')}\n  ]\n}\n`;

  it('takes productName or projectName for the project', () => {
    for (const key of ['productName', 'projectName']) {
      const result = parsePrdJson(file(`  "${key}": "Shop",\n`, [storyJson('A')]), F);
      expect(result.ok && [result.prd.project, result.prd.otherFields]).toEqual(['Shop', undefined]);
    }
  });

  it('reads priority words in JSON too, and a missing priority as file order (after the highest so far)', () => {
    const stories = [
      '    {"id": "A", "title": "T", "priority": "low", "passes": false}',
      '    {"id": "B", "title": "T", "priority": "Critical", "passes": false}',
      '    {"id": "C", "title": "T", "passes": false}',
      '    {"id": "D", "title": "T", "passes": false}',
    ];
    const result = parsePrdJson(file('  "project": "P",\n', stories), F);
    expect(result.ok && result.prd.stories.map((s) => s.priority)).toEqual([4, 1, 5, 6]);
  });

  it('reads dependencies and depends_on as dependsOn; a list naming no story is kept, with a warning naming the key', () => {
    const stories = [
      storyJson('A'),
      storyJson('B', ', "dependencies": ["A"]'),
      storyJson('C', ', "depends_on": ["A", "B"]'),
      storyJson('D', ', "dependencies": ["react", "zod"]'),
    ];
    const result = parsePrdJson(file('  "project": "P",\n', stories), F);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.prd.stories.map((s) => [s.id, s.dependsOn, s.otherFields])).toEqual([
      ['A', [], undefined],
      ['B', ['A'], undefined],
      ['C', ['A', 'B'], undefined],
      ['D', [], { dependencies: ['react', 'zod'] }],
    ]);
    expect(result.warnings.map((w) => [w.line, w.path, w.message])).toEqual([
      [
        7,
        'userStories[3].dependencies',
        '"dependencies" names no story of this file (react, zod): kept as it is, not read as dependencies',
      ],
    ]);
  });

  it('gives a story without a title its id, with a warning, as Chief accepts it', () => {
    const result = parsePrdJson(file('  "project": "P",\n', ['    {"id": "US-001", "passes": false}']), F);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.prd.stories[0]?.title).toBe('US-001');
    expect(result.warnings.map((w) => [w.line, w.path, w.message])).toContainEqual([
      4,
      'userStories[0]',
      'US-001 has no "title": its id stands in for it',
    ]);
  });

  it("keeps ralph-tui's labels, completionNotes, metadata and any other field, story and top level, in order", () => {
    const stories = [
      storyJson(
        'A',
        ', "labels": ["ui"], "completionNotes": "Done by hand", "metadata": {"points": 3}, "phase": 2',
      ),
    ];
    const result = parsePrdJson(
      file('  "name": "P",\n  "metadata": {"updatedAt": "2026-01-29"},\n  "version": 2,\n', stories),
      F,
    );
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.prd.project).toBe('P');
    expect(result.prd.otherFields).toEqual({ metadata: { updatedAt: '2026-01-29' }, version: 2 });
    expect(Object.entries(result.prd.stories[0]?.otherFields ?? {})).toEqual([
      ['labels', ['ui']],
      ['completionNotes', 'Done by hand'],
      ['metadata', { points: 3 }],
      ['phase', 2],
    ]);
  });
});
