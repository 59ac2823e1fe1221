import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSpecDir, type SpecFileText } from './parse-spec-dir.js';
import { classifySpecPath } from './spec-path.js';

const specsDir = fileURLToPath(new URL('../../test/fixtures/sources/specs-project/specs', import.meta.url));

function fixtureFiles(): SpecFileText[] {
  const relPaths = readdirSync(specsDir, { recursive: true, encoding: 'utf8' }).filter((p) =>
    p.endsWith('.md'),
  );
  return relPaths
    .reverse()
    .map((relPath) => ({ relPath, text: readFileSync(join(specsDir, relPath), 'utf8') }));
}

const spec = (relPath: string, front = 'status: pending', body = ''): SpecFileText => ({
  relPath,
  text: `---\n${front}\n---\n${body}`,
});

describe('parseSpecDir', () => {
  it('orders the fixture numerically by epic then story and sets priority to that order', () => {
    const result = parseSpecDir('specs', fixtureFiles(), 'ledger');
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const { prd, warnings } = result;
    expect(warnings).toEqual([]);
    expect(prd).toMatchObject({ format: 'spec-dir', path: 'specs', project: 'ledger' });
    expect(prd.stories.map((s) => s.id)).toEqual([
      '1.1',
      '1.2',
      '1.3',
      '1.4',
      '1.5',
      '1.6',
      '1.7',
      '1.8',
      '1.9',
      '1.10',
      '2.1',
      '2.2',
      '2.3',
    ]);
    expect(prd.stories.map((s) => s.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(prd.stories.map((s) => s.priority)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const byId = new Map(prd.stories.map((s) => [s.id, s]));
    expect(byId.get('1.1')?.status).toBe('done');
    expect(byId.get('1.4')?.status).toBe('in-progress');
    expect(byId.get('2.3')?.status).toBe('todo');
    expect(byId.get('2.1')?.dependsOn).toEqual(['1.10']);
    expect(byId.get('2.2')?.dependsOn).toEqual(['2.1', '1.5']);
    expect(byId.get('1.7')?.title).toBe('Csv import');
    expect(byId.get('1.6')?.acceptanceCriteria).toEqual([
      'List is paginated',
      'Newest first',
      'An empty list shows a hint',
    ]);
    expect(byId.get('1.10')?.location).toEqual({
      file: join('specs', 'epic-1', 'story-1.10-monthly-report.md'),
      line: 1,
      column: 1,
    });
    expect(byId.get('1.5')?.description).toMatch(/^# Balance query\n\n## Context\n/);
  });

  it('uses front-matter priority only to break ties between files with the same number', () => {
    const result = parseSpecDir(
      'specs',
      [
        spec('epic-1/story-1.2-b.md', 'priority: 9'),
        spec('epic-1/story-1.2-a.md', 'priority: 1'),
        spec('epic-1/story-1.1-x.md', 'priority: 50'),
      ],
      'p',
    );
    expect(result.ok && result.prd.stories.map((s) => s.location.file)).toEqual([
      join('specs', 'epic-1/story-1.1-x.md'),
      join('specs', 'epic-1/story-1.2-a.md'),
      join('specs', 'epic-1/story-1.2-b.md'),
    ]);
  });

  it("takes the spec skill's priority words, critical before high, medium and low, like numbers", () => {
    const result = parseSpecDir(
      'specs',
      [
        spec('epic-1/story-1.1-low.md', 'priority: low'),
        spec('epic-1/story-1.1-medium.md', 'priority: Medium'),
        spec('epic-1/story-1.1-critical.md', 'priority: critical'),
        spec('epic-1/story-1.1-high.md', 'priority: high'),
        spec('epic-1/story-1.1-number.md', 'priority: 2.5'),
      ],
      'p',
    );
    expect(result.ok && result.prd.stories.map((s) => s.location.file.replace(/^.*story-1\.1-/, ''))).toEqual(
      ['critical.md', 'high.md', 'number.md', 'medium.md', 'low.md'],
    );
  });

  it('warns about and skips misnamed or misplaced files, and ignores the rest', () => {
    const result = parseSpecDir(
      'specs',
      [
        spec('epic-1/story-1.1-ok.md'),
        spec('epic-1/notes.md'),
        spec('epic-1/story-2.1-wrong-epic.md'),
        spec('story-3.1-loose.md'),
        spec('README.md'),
        spec('drafts/story-9.9-x.md'),
      ],
      'p',
    );
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.prd.stories.map((s) => s.id)).toEqual(['1.1']);
    expect(result.warnings).toEqual([
      {
        file: join('specs', 'epic-1/notes.md'),
        message: 'epic-1/notes.md does not match story-N.M-slug.md; skipped',
        severity: 'warning',
      },
      {
        file: join('specs', 'epic-1/story-2.1-wrong-epic.md'),
        message: 'epic-1/story-2.1-wrong-epic.md: story 2.1 is not in epic-2/; skipped',
        severity: 'warning',
      },
      {
        file: join('specs', 'story-3.1-loose.md'),
        message: 'story-3.1-loose.md is not inside an epic-N directory; skipped',
        severity: 'warning',
      },
    ]);
  });

  it('warns when the front-matter id disagrees with the file name', () => {
    const result = parseSpecDir('specs', [spec('epic-1/story-1.1-x.md', 'id: "1.7"')], 'p');
    expect(result.ok && result.warnings.map((w) => w.message)).toEqual([
      'front matter id 1.7 differs from the file name; using 1.1',
    ]);
  });

  it('fails with every file error, and on a directory with no stories', () => {
    const bad = parseSpecDir(
      'specs',
      [spec('epic-1/story-1.1-x.md'), { relPath: 'epic-1/story-1.2-y.md', text: '# y\n' }],
      'p',
    );
    expect(bad.ok ? [] : bad.issues.map((i) => [i.file, i.line, i.message])).toEqual([
      [
        join('specs', 'epic-1/story-1.2-y.md'),
        1,
        'no YAML front matter (the file must start with a --- line)',
      ],
    ]);
    const empty = parseSpecDir('specs', [spec('README.md')], 'p');
    expect(empty.ok ? [] : empty.issues).toEqual([
      {
        file: 'specs',
        message:
          'no stories found: expected files like epic-1/story-1.1-login.md, each starting with YAML front matter between --- lines',
        severity: 'error',
      },
    ]);
  });
});

describe('classifySpecPath', () => {
  it.each([
    ['epic-1/story-1.2-login.md', { kind: 'story', id: '1.2', epic: 1, story: 2, slug: 'login' }],
    ['epic-12/story-12.03-a-b.md', { kind: 'story', id: '12.3', epic: 12, story: 3, slug: 'a-b' }],
    ['epic-1/story-1.4.md', { kind: 'story', id: '1.4', epic: 1, story: 4, slug: '' }],
    ['epic-1/image.png', { kind: 'ignore' }],
    ['README.md', { kind: 'ignore' }],
    ['epic-1/deep/story-1.1-x.md', { kind: 'ignore' }],
  ])('%s', (path, expected) => {
    expect(classifySpecPath(path)).toEqual(expected);
  });
});

describe('parseSpecDir with a .ralph/stories.txt queue', () => {
  const files = [
    spec('epic-1/story-1.1-a.md'),
    spec('epic-1/story-1.2-b.md'),
    spec('epic-2/story-2.1-c.md', 'depends_on: ["1.2"]'),
    spec('epic-2/story-2.2-d.md'),
    spec('epic-3/story-3.1-e.md'),
  ];
  const queue = (text: string) => parseSpecDir('specs', files, 'p', { file: '.ralph/stories.txt', text });

  it('runs the stories in the queue order, not the number order', () => {
    const result = queue('2.2 | D\n1.1 | A\n2.1 | C\n1.2 | B\n3.1 | E\n');
    expect(result.ok && result.prd.stories.map((s) => [s.id, s.priority])).toEqual([
      ['2.2', 1],
      ['1.1', 2],
      ['2.1', 3],
      ['1.2', 4],
      ['3.1', 5],
    ]);
  });

  it('skips an x line; a dependency on it is not waited for, with a warning', () => {
    const result = queue('1.1 | A\nx 1.2 | B\n2.1 | C\n2.2 | D\n3.1 | E\n');
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.prd.stories.map((s) => [s.id, s.dependsOn])).toEqual([
      ['1.1', []],
      ['2.1', []],
      ['2.2', []],
      ['3.1', []],
    ]);
    expect(result.warnings.map((w) => w.message)).toEqual([
      '2.1 depends on 1.2, which .ralph/stories.txt skips: not waited for',
    ]);
  });

  it('makes each [batch:N] group wait for the group before it', () => {
    const result = queue(
      '# Ralph Story Queue\n# [batch:0]\n1.1 | A\n1.2 | B\n\n# [batch:1] — parallel\n2.1 | C\n2.2 | D\n# [batch:2]\n3.1 | E\n',
    );
    expect(result.ok && result.prd.stories.map((s) => [s.id, s.dependsOn])).toEqual([
      ['1.1', []],
      ['1.2', []],
      ['2.1', ['1.2', '1.1']],
      ['2.2', ['1.1', '1.2']],
      ['3.1', ['2.1', '2.2']],
    ]);
  });

  it('refuses a queued id without a spec at its line, and says which specs the queue leaves out', () => {
    const result = queue('1.1 | A\n1.9 | Missing\n2.1 | C\n');
    expect(result.ok ? [] : result.issues.map((i) => [i.file, i.line, i.message])).toEqual([
      [join('specs', 'epic-1/story-1.2-b.md'), 1, '1.2 is not in .ralph/stories.txt: not run'],
      [join('specs', 'epic-2/story-2.2-d.md'), 1, '2.2 is not in .ralph/stories.txt: not run'],
      [join('specs', 'epic-3/story-3.1-e.md'), 1, '3.1 is not in .ralph/stories.txt: not run'],
      ['.ralph/stories.txt', 2, '1.9 is queued but the spec directory has no story-1.9-*.md'],
      [
        join('specs', 'epic-2/story-2.1-c.md'),
        1,
        '2.1 depends on 1.2, which .ralph/stories.txt does not name: not waited for',
      ],
    ]);
  });
});
