import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../core/errors.js';
import { parseSpecFile } from './parse-spec-file.js';
import { withSpecStatus } from './write-spec-file.js';

const F = 'story.md';
const fixture = readFileSync(
  new URL(
    '../../test/fixtures/sources/specs-project/specs/epic-2/story-2.2-budget-alerts.md',
    import.meta.url,
  ),
  'utf8',
);

describe('withSpecStatus', () => {
  it('rewrites only the status line of the fixture', () => {
    const after = withSpecStatus(fixture, F, 'done');
    expect(after).toBe(fixture.replace('status: pending\n', 'status: done\n'));
    const parsed = parseSpecFile(after, F, 'budget-alerts');
    expect(parsed.ok && parsed.story.status).toBe('done');
  });

  it('writes pending for todo and in-progress as is', () => {
    const text = '---\nstatus: done\n---\nbody\n';
    expect(withSpecStatus(text, F, 'todo')).toBe('---\nstatus: pending\n---\nbody\n');
    expect(withSpecStatus(text, F, 'in-progress')).toBe('---\nstatus: in-progress\n---\nbody\n');
  });

  it('keeps the spacing and a trailing comment, dropping the quotes', () => {
    const text = '---\nstatus:   "pending"   # set by the loop\npriority: 2\n---\n';
    expect(withSpecStatus(text, F, 'done')).toBe(
      '---\nstatus:   done   # set by the loop\npriority: 2\n---\n',
    );
  });

  it('does not touch status keys that are nested or in the body', () => {
    const text = '---\nreview:\n  status: pending\n---\nstatus: pending\n';
    expect(withSpecStatus(text, F, 'done')).toBe(
      '---\nstatus: done\nreview:\n  status: pending\n---\nstatus: pending\n',
    );
  });

  it('inserts a status line after the opening --- when there is none, keeping CRLF', () => {
    expect(withSpecStatus('---\r\npriority: 1\r\n---\r\nbody', F, 'done')).toBe(
      '---\r\nstatus: done\r\npriority: 1\r\n---\r\nbody',
    );
  });

  it('throws when the file has no front matter', () => {
    expect(() => withSpecStatus('# no front matter\n', F, 'done')).toThrow(InvalidInputError);
  });
});
