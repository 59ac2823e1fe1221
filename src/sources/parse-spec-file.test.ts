import { describe, expect, it } from 'vitest';
import { ALIAS_BOMB } from '../../test/support/fuzz-worst-cases.js';
import { parseSpecFile } from './parse-spec-file.js';

const F = 'specs/epic-1/story-1.2-account-model.md';

function ok(text: string, slug = 'account-model') {
  const result = parseSpecFile(text, F, slug);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.story;
}

function issuesOf(text: string) {
  const result = parseSpecFile(text, F, 'account-model');
  if (result.ok) throw new Error('expected the parse to fail');
  return result.issues;
}

describe('parseSpecFile', () => {
  it('reads front matter, title, body and acceptance criteria', () => {
    const text = [
      '---',
      'status: pending',
      'priority: 3',
      'depends_on: ["1.1", 1.10]',
      'estimation: 5',
      '---',
      '',
      '# Account model',
      '',
      '## Acceptance Criteria',
      '',
      '- [ ] AC1: accounts have a name',
      '- [x] AC2: balances are cents',
      '* plain item',
      '',
      '## Tasks',
      '',
      '- not a criterion',
      '',
    ].join('\n');
    expect(ok(text)).toEqual({
      title: 'Account model',
      description: text.slice(text.indexOf('# Account model')).trimEnd(),
      acceptanceCriteria: ['AC1: accounts have a name', 'AC2: balances are cents', 'plain item'],
      status: 'todo',
      dependsOn: ['1.1', '1.10'],
      priority: 3,
    });
  });

  it('maps every status and defaults a missing one to todo', () => {
    expect(ok('---\nstatus: done\n---\n').status).toBe('done');
    expect(ok('---\nstatus: In-Progress\n---\n').status).toBe('in-progress');
    expect(ok('---\nstatus: pending\n---\n').status).toBe('todo');
    expect(ok('---\nestimation: 1\n---\n').status).toBe('todo');
    expect(ok('---\n---\nbody\n').status).toBe('todo');
  });

  it('accepts depends_on as a single id, a comma list, story- prefixes or nothing', () => {
    expect(ok('---\ndepends_on: "1.1"\n---\n').dependsOn).toEqual(['1.1']);
    expect(ok('---\ndepends_on: 2.10\n---\n').dependsOn).toEqual(['2.10']);
    expect(ok('---\ndepends_on: 1.1, story-1.3\n---\n').dependsOn).toEqual(['1.1', '1.3']);
    expect(ok('---\ndepends_on:\n---\n').dependsOn).toEqual([]);
    expect(ok('---\ndepends_on: []\n---\n').dependsOn).toEqual([]);
  });

  it('takes the title from front matter, else the first H1, else the slug', () => {
    expect(ok('---\ntitle: From YAML\n---\n# From body\n').title).toBe('From YAML');
    expect(ok('---\nstatus: done\n---\n```\n# not this\n```\n## Sub\n# From body\n').title).toBe('From body');
    expect(ok('---\nstatus: done\n---\nNo heading.\n', 'csv-import_v2').title).toBe('Csv import v2');
  });

  it('keeps a front-matter id', () => {
    expect(ok('---\nid: story-1.2\n---\n').id).toBe('1.2');
  });

  it("reads the spec skill's AC1 / Given / When / Then blocks as one criterion per AC, with its name", () => {
    const text = [
      '---',
      'id: "1.2"',
      'status: pending',
      'priority: high',
      'depends_on: []',
      '---',
      '',
      '# Story 1.2 — Account model',
      '',
      '## Acceptance Criteria',
      '',
      '### AC1: Create an account',
      '- **Given** no account named "cash"',
      '- **When** I create one',
      '- **Then** it is listed with a zero balance',
      '',
      '### AC2: Typecheck passes',
      '- **Given** the change',
      '- **When** I run `npm run typecheck`',
      '- **Then** it exits 0',
      '',
      '## Test Definition',
      '- a unit test',
    ].join('\n');
    const story = ok(text);
    expect(story.acceptanceCriteria).toEqual([
      'AC1: Create an account — Given no account named "cash"; When I create one; Then it is listed with a zero balance',
      'AC2: Typecheck passes — Given the change; When I run `npm run typecheck`; Then it exits 0',
    ]);
    expect(story.priority).toBe(2);
  });

  it('refuses an alias bomb and deep nesting in the front matter, at their line', () => {
    const bomb = `---\n${ALIAS_BOMB}\n---\n`;
    expect(issuesOf(bomb)).toEqual([
      {
        file: F,
        line: 3,
        column: 8,
        message:
          'invalid YAML front matter: YAML aliases here expand to more than 1000 nodes (an alias bomb?); write the values out',
        severity: 'error',
      },
    ]);
    const deep = `---\nx: ${'['.repeat(100)}${']'.repeat(100)}\n---\n`;
    expect(issuesOf(deep)).toEqual([
      {
        file: F,
        line: 2,
        column: 67,
        message: 'invalid YAML front matter: the YAML is nested more than 64 levels deep',
        severity: 'error',
      },
    ]);
    const deeper = `---\nx: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n---\n`;
    expect(issuesOf(deeper)[0]?.message).toMatch(/^invalid YAML front matter: the YAML is nested too deeply/);
  });

  it('reports a file without front matter', () => {
    expect(issuesOf('# Account model\n')).toEqual([
      {
        file: F,
        line: 1,
        column: 1,
        message: 'no YAML front matter (the file must start with a --- line)',
        severity: 'error',
      },
    ]);
    expect(issuesOf('---\nstatus: done\n')[0]?.message).toBe(
      'front matter is not closed (expected a --- line after it)',
    );
  });

  it('reports YAML syntax errors at their file line and column', () => {
    const issues = issuesOf('---\nstatus: done\ndepends_on: [1.1\npriority: 2\n---\n');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: F, line: 4, column: 1, severity: 'error' });
    expect(issues[0]?.message).toMatch(/^invalid YAML front matter: /);
    expect(issuesOf('---\na: 1\na: 2\n---\n')[0]).toMatchObject({ line: 3, column: 1 });
  });

  it('reports bad field values with their path and position', () => {
    expect(issuesOf('---\nestimation: 1\nstatus: finished\npriority: urgent\n---\n')).toEqual([
      {
        file: F,
        line: 3,
        column: 9,
        path: 'status',
        message: 'expected pending, in-progress or done, received "finished"',
        severity: 'error',
      },
      {
        file: F,
        line: 4,
        column: 11,
        path: 'priority',
        message: 'expected a number or critical, high, medium, low; received "urgent"',
        severity: 'error',
      },
    ]);
  });

  it('reports depends_on that is not a list of ids, and front matter that is not a mapping', () => {
    expect(issuesOf('---\ndepends_on:\n  a: 1\n---\n')).toEqual([
      {
        file: F,
        line: 3,
        column: 3,
        message: 'depends_on: expected a story id or a list of story ids',
        severity: 'error',
      },
    ]);
    expect(issuesOf('---\n- a\n---\n')[0]).toMatchObject({
      line: 2,
      message: 'front matter must be a YAML mapping',
    });
  });
});
