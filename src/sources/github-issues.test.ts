import { describe, expect, it } from 'vitest';
import type { IssueFields } from '../github/issues-api.js';
import { issueNumberOf, issuesAddress, readIssues } from './github-issues.js';

const repo = { owner: 'acme', repo: 'app' };
const source = { repo, label: 'ralph', address: issuesAddress(repo, 'ralph') };
const issue = (number: number, fields: Partial<IssueFields> = {}): IssueFields => ({
  number,
  title: `Issue ${number}`,
  body: '',
  labels: ['ralph'],
  url: `https://github.com/acme/app/issues/${number}`,
  ...fields,
});

const read = (issues: IssueFields[], passed: string[] = []) => {
  const result = readIssues(issues, source, new Set(passed));
  if (!result.ok) throw new Error('not ok');
  return result;
};

describe('issues read as stories', () => {
  it('makes GH-<n> stories in issue order: title, body as description, task list as criteria', () => {
    const { prd } = read([
      issue(12, {
        title: 'Add shout',
        body: 'Make it loud.\n\n## Done when\n- [ ] shout.txt says HEY\n- [x] the README mentions it\n  - [ ] in the usage section\n\n```md\n- [ ] not a criterion\n```\n',
      }),
      issue(3),
    ]);
    expect(prd.format).toBe('github');
    expect(prd.path).toBe('github:acme/app?label=ralph');
    expect(prd.project).toBe('acme/app');
    expect(prd.stories.map((s) => s.id)).toEqual(['GH-3', 'GH-12']);
    const shout = prd.stories[1];
    expect(shout?.title).toBe('Add shout');
    expect(shout?.acceptanceCriteria).toEqual([
      'shout.txt says HEY',
      'the README mentions it\n  - [ ] in the usage section',
    ]);
    expect(shout?.checkedCriteria).toEqual([false, true]);
    expect(shout?.description).toContain('Make it loud.');
    expect(shout?.description).toContain('- [ ] not a criterion');
    expect(shout?.description).not.toContain('shout.txt says HEY');
    expect(shout?.location.file).toBe('https://github.com/acme/app/issues/12');
  });

  it('reads "Depends on" and "Blocked by" lines as dependencies, and warns of one that is not a story', () => {
    const result = read([
      issue(1),
      issue(2, { body: 'Depends on #1' }),
      issue(3, {
        body: '**Blocked by:** #1, #2 and https://github.com/acme/app/issues/9\nmentions #2 elsewhere',
      }),
    ]);
    expect(result.prd.stories.map((s) => s.dependsOn)).toEqual([[], ['GH-1'], ['GH-1', 'GH-2']]);
    expect(result.warnings.map((w) => w.message)).toEqual([
      'GH-3: depends on #9, which is not an open issue labelled "ralph" (closed, or not labelled): not waited for',
    ]);
  });

  it('takes the priority from a priority: label (a word or a number), else the issue number', () => {
    const result = read([
      issue(5, { labels: ['ralph', 'priority: high'] }),
      issue(6, { labels: ['ralph', 'Priority:0.5'] }),
      issue(7),
      issue(8, { labels: ['ralph', 'priority:urgent'] }),
    ]);
    expect(result.prd.stories.map((s) => s.priority)).toEqual([2, 0.5, 7, 8]);
    expect(result.warnings[0]?.message).toMatch(/GH-8: label "priority:urgent" is not a priority/);
  });

  it('counts ralph:done (or a pass this process wrote) as passed, ralph:in-progress as in progress', () => {
    const { prd } = read(
      [
        issue(1, { labels: ['ralph', 'ralph:done'] }),
        issue(2, { labels: ['ralph', 'ralph:in-progress'] }),
        issue(3),
        issue(4),
      ],
      ['GH-4'],
    );
    expect(prd.stories.map((s) => s.status)).toEqual(['done', 'in-progress', 'todo', 'done']);
  });

  it('knows the issue of a story id', () => {
    expect(issueNumberOf('GH-12')).toBe(12);
    expect(issueNumberOf('GH-012')).toBeNull();
    expect(issueNumberOf('US-1')).toBeNull();
  });
});
