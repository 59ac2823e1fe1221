import { describe, expect, it } from 'vitest';
import { checkDraft, knownStoriesOf } from './draft-check.js';

const FILE = '.ralph/prds/auth/prd.md';

const story = (id: string, title: string, status: string, extra: string[] = []) =>
  [
    `### ${id}: ${title}`,
    `**Status:** ${status}`,
    `**Description:** As a user, I want ${title.toLowerCase()}.`,
    ...extra,
    '',
    '**Acceptance Criteria:**',
    `- [ ] ${title} is saved`,
    '- [ ] Typecheck passes',
    '',
  ].join('\n');

const prd = (...stories: string[]) =>
  `# Auth\n\n## Overview\nLogin.\n\n## User Stories\n\n${stories.join('\n')}`;

describe('checkDraft', () => {
  it('reports a missing file', () => {
    const check = checkDraft(null, FILE, []);
    expect(check).toMatchObject({ ok: false, missing: true });
    expect(!check.ok && check.issues[0]?.message).toBe('no file was written');
  });

  it('passes on the parser errors with line numbers, errors only', () => {
    const text = prd(story('US-001', 'Login form', 'someday'));
    const check = checkDraft(text, FILE, []);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.missing).toBe(false);
    expect(check.issues).toHaveLength(1);
    expect(check.issues[0]).toMatchObject({ file: FILE, line: 9, severity: 'error' });
    expect(check.issues[0]?.message).toMatch(/bad status "someday"/);
  });

  it('rejects a dependency on a story that does not exist', () => {
    const text = prd(story('US-001', 'Login form', 'todo', ['**Depends on:** US-009']));
    const check = checkDraft(text, FILE, []);
    expect(!check.ok && check.issues.map((i) => i.message)).toEqual([
      'US-001 depends on unknown story US-009',
    ]);
  });

  it('makes every story of a new PRD todo, and says which statuses it changed', () => {
    const text = prd(story('US-001', 'Login form', 'done'), story('US-002', 'Logout', 'todo'));
    const check = checkDraft(text, FILE, []);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.restored).toEqual([{ id: 'US-001', from: 'done', to: 'todo' }]);
    expect(check.prd.stories.map((s) => s.status)).toEqual(['todo', 'todo']);
    expect(check.text).toBe(text.replace('**Status:** done', '**Status:** todo'));
  });

  it('puts back the statuses of an edited PRD and keeps the agent text otherwise', () => {
    const before = prd(story('US-001', 'Login form', 'done'), story('US-002', 'Logout', 'in-progress'));
    const after = prd(
      story('US-001', 'Login form', 'todo'),
      story('US-002', 'Logout', 'in-progress'),
      story('US-003', 'Password reset', 'todo'),
    );
    const check = checkDraft(after, FILE, knownStoriesOf(before, FILE));
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.prd.stories.map((s) => [s.id, s.status])).toEqual([
      ['US-001', 'done'],
      ['US-002', 'in-progress'],
      ['US-003', 'todo'],
    ]);
    expect(check.comparison.added).toEqual(['US-003']);
    expect(check.text).toContain('Password reset');
  });

  it('rejects an edit that renumbered the existing stories', () => {
    const before = prd(story('US-001', 'Login form', 'done'), story('US-002', 'Logout', 'todo'));
    const after = prd(
      story('US-001', 'Login form', 'done'),
      story('US-002', 'Password reset', 'todo'),
      story('US-003', 'Logout', 'todo'),
    );
    const check = checkDraft(after, FILE, knownStoriesOf(before, FILE));
    expect(check.ok).toBe(false);
    expect(!check.ok && check.issues.map((i) => i.message).join('\n')).toMatch(/keep its id US-002/);
  });

  it('adds story-quality advice as warnings without blocking', () => {
    const text = prd(
      [
        '### US-001: Settings page',
        '**Status:** todo',
        '',
        '**Acceptance Criteria:**',
        '- [ ] Page looks good',
        '',
      ].join('\n'),
    );
    const check = checkDraft(text, FILE, []);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    const messages = check.warnings.map((w) => w.message).join('\n');
    expect(messages).toMatch(/"looks good"/);
    expect(messages).toMatch(/browser/);
    expect(messages).toMatch(/no criterion names a check/);
  });
});

describe('knownStoriesOf', () => {
  it('reads ids, titles and statuses even from a file that does not validate', () => {
    const text = prd(
      story('US-001', 'Login form', 'done', ['**Depends on:** US-404']),
      story('US-002', 'Logout', 'wat'),
    );
    expect(knownStoriesOf(text, FILE)).toEqual([
      { id: 'US-001', title: 'Login form', status: 'done' },
      { id: 'US-002', title: 'Logout', status: 'todo' },
    ]);
  });
});
