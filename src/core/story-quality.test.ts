import { describe, expect, it } from 'vitest';
import {
  checkStoryQuality,
  hasCheckCriterion,
  isUiStory,
  sameStoryTitle,
  titleKey,
  vagueTerms,
} from './story-quality.js';
import type { Story } from './types.js';

let line = 0;
function story(over: Partial<Story> & Pick<Story, 'id'>): Story {
  line += 10;
  return {
    title: 'Add invoice table',
    description: 'As a developer, I need an invoices table.',
    acceptanceCriteria: ['Migration creates the invoices table', 'Typecheck passes'],
    priority: 1,
    status: 'todo',
    dependsOn: [],
    order: 1,
    location: { file: 'prd.md', line, column: 1 },
    ...over,
  };
}

const messages = (s: Story, options = {}) => checkStoryQuality([s], options).map((i) => i.message);

describe('checkStoryQuality', () => {
  it('has nothing to say about a small, checkable backend story', () => {
    expect(checkStoryQuality([story({ id: 'US-001' })])).toEqual([]);
  });

  it('warns about a story without acceptance criteria, at the story, with its id as the path', () => {
    const s = story({ id: 'US-002', acceptanceCriteria: [] });
    const issues = checkStoryQuality([s]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      file: 'prd.md',
      line: s.location.line,
      path: 'US-002',
      severity: 'warning',
    });
    expect(issues[0]?.message).toMatch(/no acceptance criteria/);
  });

  it('names the vague words of an uncheckable criterion', () => {
    const out = messages(
      story({
        id: 'US-003',
        acceptanceCriteria: ['Export works well', 'Dialog is user-friendly', 'Tests pass'],
      }),
    );
    expect(out.find((m) => m.includes('Export works well'))).toMatch(/"works well"/);
    expect(out.find((m) => m.includes('Dialog is user-friendly'))).toMatch(/"user-friendly"/);
  });

  it('lets speed words pass when the criterion puts a number on them', () => {
    expect(vagueTerms('Search is fast')).toEqual(['fast']);
    expect(vagueTerms('README.md with: Quick Start, Installation, Usage examples')).toEqual([]);
    expect(vagueTerms('ralph merge does a fast-forward when it can')).toEqual([]);
    expect(vagueTerms('A quick search box')).toEqual(['quick']);
    expect(vagueTerms('Search answers in under 200 ms, fast enough for typing')).toEqual([]);
    expect(vagueTerms('Typecheck passes')).toEqual([]);
  });

  it('flags stories with too many criteria or a long description, with configurable limits', () => {
    const many = Array.from({ length: 9 }, (_, i) => `Field ${i + 1} is saved; tests pass`);
    expect(messages(story({ id: 'US-004', acceptanceCriteria: many })).join('\n')).toMatch(
      /9 acceptance criteria \(more than 8\)/,
    );
    expect(
      messages(story({ id: 'US-004', acceptanceCriteria: many }), { limits: { maxCriteria: 9 } }),
    ).toEqual([]);
    const long = story({ id: 'US-005', description: 'x'.repeat(801) });
    expect(messages(long).join('\n')).toMatch(/description of 801 characters/);
  });

  it('asks for browser verification on UI stories only', () => {
    const ui = story({
      id: 'US-006',
      title: 'Paid button',
      acceptanceCriteria: ['A "Mark paid" button on the invoice page', 'Typecheck passes'],
    });
    expect(messages(ui).join('\n')).toMatch(/browser/);
    const verified = {
      ...ui,
      acceptanceCriteria: [...ui.acceptanceCriteria, 'Verify in browser using dev-browser'],
    };
    expect(messages(verified)).toEqual([]);
    expect(isUiStory(story({ id: 'US-007' }))).toBe(false);
  });

  it('asks for a typecheck or test criterion', () => {
    const s = story({ id: 'US-008', acceptanceCriteria: ['Daily job finds invoices past due_on'] });
    expect(messages(s)).toEqual(['no criterion names a check (e.g. "Typecheck passes", "Tests pass")']);
    // With `checks:` in the config every story is gated: no such criterion is needed.
    expect(messages(s, { gated: true })).toEqual([]);
    expect(hasCheckCriterion(['A test covers the output'])).toBe(true);
    expect(hasCheckCriterion(['npm run typecheck passes'])).toBe(true);
  });

  it('reports an id reused for a different story than in the earlier version', () => {
    const s = story({ id: 'US-001', title: 'Add signup form' });
    const previous = [{ id: 'US-001', title: 'Add login form' }];
    expect(messages(s, { previous }).join('\n')).toMatch(/id reused: US-001 was "Add login form"/);
    const renamed = story({ id: 'US-001', title: 'Add invoices table with indexes' });
    expect(messages(renamed, { previous: [{ id: 'US-001', title: 'Add invoice table' }] })).toEqual([]);
  });
});

describe('control characters', () => {
  it('are warned about in the title and criteria, shown as symbols in the warning itself', () => {
    const s = story({
      id: 'US-020',
      title: 'Greet \u001b]52;c;aGk=\u0007 and \u001b[2J',
      acceptanceCriteria: ['Typecheck passes', 'Window \u001b]0;pwned\u0007 title'],
    });
    const found = messages(s).filter((m) => m.includes('control characters'));
    expect(found).toEqual([
      'title holds control characters (shown as symbols: "Greet ␛]52;c;aGk=␇ and ␛[2J"); a terminal would act on them, so ralph never prints them as they are',
      'criterion 2 holds control characters (shown as symbols: "Window ␛]0;pwned␇ title"); a terminal would act on them, so ralph never prints them as they are',
    ]);
    expect(found.join('')).not.toContain('\u001b');
  });

  it('are warned about in an id that reached the check', () => {
    const found = messages(story({ id: 'US-\u00071' })).filter((m) => m.includes('control characters'));
    expect(found).toEqual([
      'id holds control characters (shown as symbols: "US-␇1"); a terminal would act on them, so ralph never prints them as they are',
    ]);
  });
});

describe('sameStoryTitle', () => {
  it('matches extensions and plurals, not a different subject', () => {
    expect(sameStoryTitle('Add login', 'Add login form')).toBe(true);
    expect(sameStoryTitle('Create an event', 'Create events from the week view')).toBe(true);
    expect(sameStoryTitle('Add login', 'Add signup')).toBe(false);
    expect(sameStoryTitle('Print a greeting', 'Greet by name')).toBe(false);
    expect(titleKey('The Events Table')).toBe(titleKey('events table'));
  });
});
