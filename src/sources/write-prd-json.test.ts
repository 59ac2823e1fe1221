import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../core/errors.js';
import { parsePrdJson } from './parse-prd-json.js';
import { UnknownStoryError } from './source-errors.js';
import { withPrdJsonStatus } from './write-prd-json.js';

const F = 'prd.json';
const original = readFileSync(new URL('../../test/fixtures/sources/prd.json', import.meta.url), 'utf8');

/** 1-based numbers of the lines that differ; both texts must have the same number of lines. */
function changedLines(before: string, after: string): number[] {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b).toHaveLength(a.length);
  return a.flatMap((line, i) => (line === b[i] ? [] : [i + 1]));
}

const statusOf = (text: string, id: string) => {
  const result = parsePrdJson(text, F);
  return result.ok ? result.prd.stories.find((s) => s.id === id)?.status : undefined;
};

describe('withPrdJsonStatus', () => {
  it('marks a story done by changing only its passes line', () => {
    const after = withPrdJsonStatus(original, F, 'US-003', 'done');
    expect(changedLines(original, after)).toEqual([44]);
    expect(after.split('\n')[43]).toBe('      "passes": true,');
    expect(statusOf(after, 'US-003')).toBe('done');
  });

  it('clears inProgress when an in-progress story is done', () => {
    const after = withPrdJsonStatus(original, F, 'US-002', 'done');
    expect(changedLines(original, after)).toEqual([33, 34]);
    expect(after.split('\n').slice(32, 34)).toEqual(['      "passes": true,', '      "inProgress": false,']);
    expect(statusOf(after, 'US-002')).toBe('done');
  });

  it('inserts inProgress after passes, with the same indent, when it is absent', () => {
    const after = withPrdJsonStatus(original, F, 'US-004', 'in-progress');
    const lines = after.split('\n');
    const passes = lines.indexOf('      "passes": false,', 50);
    expect(lines[passes + 1]).toBe('      "inProgress": true,');
    lines.splice(passes + 1, 1);
    expect(lines.join('\n')).toBe(original);
    expect(statusOf(after, 'US-004')).toBe('in-progress');
  });

  it('inserts inProgress inline in a one-line story object', () => {
    const text =
      '{"project": "P", "userStories": [{"id": "A", "title": "T", "acceptanceCriteria": [], "priority": 1, "passes": false}]}';
    expect(withPrdJsonStatus(text, F, 'A', 'in-progress')).toBe(
      '{"project": "P", "userStories": [{"id": "A", "title": "T", "acceptanceCriteria": [], "priority": 1, "passes": false, "inProgress": true}]}',
    );
  });

  it('reopens a done story without touching anything else', () => {
    const after = withPrdJsonStatus(original, F, 'US-001', 'todo');
    expect(changedLines(original, after)).toEqual([19]);
    expect(statusOf(after, 'US-001')).toBe('todo');
  });

  it('keeps unknown fields, the trailing newline, and returns the same text when nothing changes', () => {
    const after = withPrdJsonStatus(original, F, 'US-002', 'done');
    expect(after).toContain('"generatedBy": "prd-writer"');
    expect(after).toContain('"estimate": "S"');
    expect(after.endsWith('}\n')).toBe(true);
    expect(withPrdJsonStatus(original, F, 'US-001', 'done')).toBe(original);
    const noNewline = original.trimEnd();
    expect(withPrdJsonStatus(noNewline, F, 'US-003', 'done').endsWith('}')).toBe(true);
  });

  it('keeps CRLF line endings when inserting', () => {
    const crlf = original.replace(/\n/g, '\r\n');
    const after = withPrdJsonStatus(crlf, F, 'US-004', 'in-progress');
    expect(after).toContain('"passes": false,\r\n      "inProgress": true,\r\n');
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('throws for an unknown story and for an invalid file', () => {
    expect(() => withPrdJsonStatus(original, F, 'US-999', 'done')).toThrow(UnknownStoryError);
    expect(() => withPrdJsonStatus('{"project": "P",}', F, 'US-001', 'done')).toThrow(InvalidInputError);
  });
});
