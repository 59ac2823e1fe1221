import { describe, expect, it } from 'vitest';
import type { Story, StoryStatus } from '../core/types.js';
import { compareVersions, type KnownStory, nextFreeId } from './id-guard.js';

const next = (entries: [string, string, StoryStatus?][]): Story[] =>
  entries.map(([id, title, status], i) => ({
    id,
    title,
    description: '',
    acceptanceCriteria: ['Typecheck passes'],
    priority: i + 1,
    status: status ?? 'todo',
    dependsOn: [],
    order: i + 1,
    location: { file: 'prd.md', line: 10 * (i + 1), column: 1 },
  }));

const before: KnownStory[] = [
  { id: 'US-001', title: 'Add login form', status: 'done' },
  { id: 'US-002', title: 'Add logout button', status: 'in-progress' },
  { id: 'US-003', title: 'Remember me checkbox', status: 'todo' },
];

describe('compareVersions', () => {
  it('keeps the previous statuses, whatever the new file says, and makes new stories todo', () => {
    const result = compareVersions(
      before,
      next([
        ['US-001', 'Add login form', 'todo'],
        ['US-002', 'Add logout button', 'done'],
        ['US-003', 'Remember-me checkbox on the login form'],
        ['US-004', 'Password reset link', 'done'],
      ]),
    );
    expect(result.errors).toEqual([]);
    expect(Object.fromEntries(result.statuses)).toEqual({
      'US-001': 'done',
      'US-002': 'in-progress',
      'US-003': 'todo',
      'US-004': 'todo',
    });
    expect(result.added).toEqual(['US-004']);
    expect(result.removed).toEqual([]);
  });

  it('rejects renumbering: an existing story found under another id', () => {
    const result = compareVersions(
      before,
      next([
        ['US-001', 'Add login form'],
        ['US-002', 'Password reset link'],
        ['US-003', 'Add logout button'],
        ['US-004', 'Remember me checkbox'],
      ]),
    );
    const messages = result.errors.map((e) => e.message);
    expect(messages).toContainEqual(
      expect.stringMatching(/US-003 "Add logout button" is the existing story US-002/),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(/US-004 "Remember me checkbox" is the existing story US-003/),
    );
    expect(result.errors.every((e) => e.severity === 'error')).toBe(true);
  });

  it('rejects giving the id of a story with progress to another story, and only warns for a todo one', () => {
    const result = compareVersions(
      before,
      next([
        ['US-001', 'Export invoices as CSV'],
        ['US-002', 'Add logout button'],
        ['US-003', 'Dark mode toggle'],
      ]),
    );
    expect(result.errors.map((e) => e.path)).toEqual(['US-001']);
    expect(result.errors[0]?.message).toMatch(/US-001 was "Add login form" \(done\)/);
    expect(result.warnings.map((w) => w.path)).toEqual(['US-003']);
  });

  it('rejects removing a story with progress; removing a todo story is allowed', () => {
    const result = compareVersions(before, next([['US-002', 'Add logout button']]));
    expect(result.removed).toEqual(['US-001', 'US-003']);
    expect(result.errors.map((e) => e.path)).toEqual(['US-001']);
    expect(result.errors[0]?.message).toMatch(/done and was removed/);
  });

  it('treats every story of a new PRD as added and todo', () => {
    const result = compareVersions(
      [],
      next([
        ['US-001', 'A', 'done'],
        ['US-002', 'B'],
      ]),
    );
    expect(result.added).toEqual(['US-001', 'US-002']);
    expect([...result.statuses.values()]).toEqual(['todo', 'todo']);
  });
});

describe('nextFreeId', () => {
  it('continues the most common numbering past its highest number, keeping the width', () => {
    expect(nextFreeId(['US-001', 'US-002', 'US-007'])).toBe('US-008');
    expect(nextFreeId(['US-001', 'US-002', 'X9'])).toBe('US-003');
    expect(nextFreeId(['T1', 'T2', 'T3'])).toBe('T4');
    expect(nextFreeId(['US-099'])).toBe('US-100');
    expect(nextFreeId([])).toBe('US-001');
  });
});
