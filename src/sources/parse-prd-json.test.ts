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
