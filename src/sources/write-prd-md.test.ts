import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../core/errors.js';
import { parsePrdMd } from './parse-prd-md.js';
import { UnknownStoryError } from './source-errors.js';
import { withPrdMdStatus } from './write-prd-md.js';

const F = 'prd.md';
const original = readFileSync(new URL('../../test/fixtures/sources/prd.md', import.meta.url), 'utf8');

/** 1-based numbers of the lines that differ; both texts must have the same number of lines. */
function changedLines(before: string, after: string): number[] {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b).toHaveLength(a.length);
  return a.flatMap((line, i) => (line === b[i] ? [] : [i + 1]));
}

const story = (text: string, id: string) => {
  const result = parsePrdMd(text, F);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.prd.stories.find((s) => s.id === id);
};

describe('withPrdMdStatus', () => {
  it('rewrites the status line and ticks only that story’s criteria on done', () => {
    const after = withPrdMdStatus(original, F, 'US-002', 'done');
    expect(changedLines(original, after)).toEqual([37, 43, 45]);
    const lines = after.split('\n');
    expect(lines[36]).toBe('**Status:** done');
    expect(lines.slice(42, 45)).toEqual([
      '- [x] "New event" button opens a form',
      '- [x] Event appears in the week view after saving',
      '- [x] Typecheck passes',
    ]);
    expect(story(after, 'US-002')?.status).toBe('done');
    expect(story(after, 'US-003')?.status).toBe('todo');
  });

  it('inserts a status line under the heading when the story has none', () => {
    const after = withPrdMdStatus(original, F, 'US-003', 'in-progress');
    const lines = after.split('\n');
    expect(lines[46]).toBe('### US-003: Invite teammates');
    expect(lines[47]).toBe('**Status:** in-progress');
    lines.splice(47, 1);
    expect(lines.join('\n')).toBe(original);
    expect(story(after, 'US-003')?.status).toBe('in-progress');
  });

  it('does not untick criteria when a story goes back to todo', () => {
    const after = withPrdMdStatus(original, F, 'US-001', 'todo');
    expect(changedLines(original, after)).toEqual([26]);
    expect(after).toContain('- [x] Migration creates the events table');
  });

  it('returns the same text when the story is already done and ticked', () => {
    expect(withPrdMdStatus(original, F, 'US-001', 'done')).toBe(original);
  });

  it('keeps the prefix style of the status line', () => {
    const text = '# P\n\n### US-1: One\n- **Status**: todo\n- [ ] a\n';
    expect(withPrdMdStatus(text, F, 'US-1', 'done')).toBe(
      '# P\n\n### US-1: One\n- **Status**: done\n- [x] a\n',
    );
  });

  it('keeps CRLF endings and a missing final newline', () => {
    const crlf = '# P\r\n\r\n### US-1: One\r\n- [ ] a';
    expect(withPrdMdStatus(crlf, F, 'US-1', 'done')).toBe(
      '# P\r\n\r\n### US-1: One\r\n**Status:** done\r\n- [x] a',
    );
    expect(withPrdMdStatus('# P\n\n### US-1: One', F, 'US-1', 'done')).toBe(
      '# P\n\n### US-1: One\n**Status:** done',
    );
    expect(withPrdMdStatus('# P\n\n### US-1: One\n', F, 'US-1', 'done')).toBe(
      '# P\n\n### US-1: One\n**Status:** done\n',
    );
  });

  it('leaves checkboxes of other stories and of other sections alone', () => {
    const text =
      '# P\n\n## Checklist\n- [ ] ship it\n\n## Stories\n\n### US-1: One\n- [ ] a\n\n### US-2: Two\n- [ ] b\n';
    const after = withPrdMdStatus(text, F, 'US-1', 'done');
    expect(after).toBe(
      '# P\n\n## Checklist\n- [ ] ship it\n\n## Stories\n\n### US-1: One\n**Status:** done\n- [x] a\n\n### US-2: Two\n- [ ] b\n',
    );
  });

  it('throws for an unknown story and for an invalid file', () => {
    expect(() => withPrdMdStatus(original, F, 'US-404', 'done')).toThrow(UnknownStoryError);
    expect(() => withPrdMdStatus('# P\n\n### US-1: One\n**Priority:** soon\n', F, 'US-1', 'done')).toThrow(
      InvalidInputError,
    );
  });
});
